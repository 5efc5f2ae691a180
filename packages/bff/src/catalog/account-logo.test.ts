/**
 * A widget's account logo held in memory: fetched once per logo URL, fetched again when the URL changes, a
 * failed fetch answered from memory until its retry time (a stream of requests is never a stream of fetches),
 * and the same address named by every instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LogoHost, startLogoHost, TINY_PNG } from '../../testing/logo-host';
import { createLogger } from '../logger';
import { accountLogoPath, createAccountLogo } from './account-logo';

const logger = createLogger({ level: 'error', write: () => undefined });
let host: LogoHost;
beforeAll(async () => {
  host = await startLogoHost();
});
afterAll(async () => {
  await host?.close();
});

describe('the account logo', () => {
  it('names the same address on every instance, from the widget and the logo URL alone', () => {
    const options = {
      widgetId: 'acme',
      publicOrigin: 'https://bff.example',
      logger,
    };
    const source = 'https://cdn.upstream.example/acme.png';
    const address = createAccountLogo(options).address(source);
    expect(address).toBe(`https://bff.example${accountLogoPath('acme', source)}`);
    expect(createAccountLogo(options).address(source)).toBe(address);
    expect(createAccountLogo(options).address(`${source}?v=2`)).not.toBe(address);
    expect(createAccountLogo({ ...options, publicOrigin: undefined }).address(source)).toBeNull();
  });

  it('fetches once, again for a new URL, and after a failure only when its retry time has come', async () => {
    let clock = 0;
    const logo = createAccountLogo({
      widgetId: 'acme',
      publicOrigin: 'https://bff.example',
      testHost: host.testHost,
      logger,
      retryAfterMs: 60_000,
      now: () => clock,
    });
    const requests = () => host.requests.length;
    const before = requests();
    host.answer = () => ({ status: 503, body: 'busy' });
    expect(await logo.image(host.logoUrl('/a.png'))).toBeNull();
    expect(await logo.image(host.logoUrl('/a.png'))).toBeNull();
    expect(requests() - before).toBe(1);

    host.answer = () => ({ status: 200, body: TINY_PNG });
    clock += 59_999;
    expect(await logo.image(host.logoUrl('/a.png'))).toBeNull();
    clock += 1;
    expect((await logo.image(host.logoUrl('/a.png')))?.contentType).toBe('image/png');
    await logo.image(host.logoUrl('/a.png'));
    expect(requests() - before).toBe(2);

    const other = await logo.image(host.logoUrl('/b.png'));
    expect(Buffer.from(other?.bytes ?? []).equals(TINY_PNG)).toBe(true);
    expect(requests() - before).toBe(3);
  });
});
