import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_OPTIONS, resolveSandboxOptions } from './options';
import { readServerSettings } from './server-settings';

describe('readServerSettings', () => {
  it('defaults to 127.0.0.1:8788 and the sandbox defaults', () => {
    const settings = readServerSettings({});
    expect(settings.port).toBe(8788);
    expect(settings.hostname).toBe('127.0.0.1');
    expect(settings.options.faultInjection).toBeUndefined();
  });

  it('keeps the default step delays when no delay variable is set', () => {
    const options = resolveSandboxOptions(readServerSettings({}).options);
    expect(options.stepDelaysMs).toEqual(DEFAULT_SANDBOX_OPTIONS.stepDelaysMs);
    expect(options.quoteTtlSeconds).toBe(DEFAULT_SANDBOX_OPTIONS.quoteTtlSeconds);
  });

  it('reads every variable', () => {
    const settings = readServerSettings({
      SANDBOX_PORT: '9000',
      SANDBOX_SEED: '7',
      SANDBOX_OFFER_COUNT: '10000',
      SANDBOX_QUOTE_TTL_SECONDS: '60',
      SANDBOX_STEP_DELAY_MS: '0',
      SANDBOX_DELIVERY_DELAY_MS: '5000',
      SANDBOX_PUBLIC_BASE_URL: 'https://sandbox.example',
      SANDBOX_CONTROL_SECRET: 'a-long-secret',
      SANDBOX_FAULTS: '1',
    });
    expect(settings.port).toBe(9000);
    expect(settings.options).toMatchObject({
      seed: 7,
      offerCount: 10000,
      quoteTtlSeconds: 60,
      stepDelaysMs: { provisioning: 0, delivery: 5000, completion: 0 },
      publicBaseUrl: 'https://sandbox.example',
      controlSecret: 'a-long-secret',
      faultInjection: true,
    });
  });

  it('names every bad variable', () => {
    expect(() => readServerSettings({ SANDBOX_PORT: 'eighty', SANDBOX_FAULTS: 'maybe' })).toThrow(
      /SANDBOX_PORT.*SANDBOX_FAULTS/,
    );
  });
});
