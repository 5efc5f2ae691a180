/**
 * The example configs in the reseller docs are valid configs, and the sandbox page names every test key, so the
 * docs cannot drift from the schema or the sandbox. Neither ships the sandbox account's support link: the live
 * widget names a placeholder the reseller must replace (refused in live until they do), the test widgets none.
 */
import { readFileSync } from 'node:fs';
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { describe, expect, it } from 'vitest';
import { SUPPORT_URL_PLACEHOLDER } from './brand-url-rules';
import { DEFAULT_SANDBOX_URL } from './default-config';
import { ConfigError, parseConfig } from './load-config';

describe('docs/examples/bff.config.json', () => {
  const path = new URL('../../../../docs/examples/bff.config.json', import.meta.url);
  const example = () => JSON.parse(readFileSync(path, 'utf8'));

  it('is valid once its live widget names the reseller’s own support page', () => {
    const edited = example();
    edited.widgets[0].brand.supportUrl = 'https://www.acme-travel.example/help';
    const config = parseConfig(edited, 'docs/examples/bff.config.json');
    expect(config.widgets.map((widget) => widget.checkoutMode)).toEqual(['partner_confirm', 'direct']);
    expect(config.trustedProxyHops).toBe(1);
    expect(config.widgets[0]?.webhookSecretEnv).toBe('ACME_WEBHOOK_SECRET');
  });

  it('names no sandbox support link: a placeholder in live, refused until replaced, and none in test', () => {
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('globetrotter');
    const [live, test] = example().widgets;
    expect(live.brand.supportUrl).toBe(SUPPORT_URL_PLACEHOLDER);
    expect(test.brand.supportUrl).toBeNull();
    expect(() => parseConfig(example(), 'config.json')).toThrow(ConfigError);
    expect(() => parseConfig(example(), 'config.json')).toThrow(
      /widgets\[0\]\.brand\.supportUrl: still the example config’s placeholder: set your own support page/,
    );
    // The placeholder is only refused in live: a test widget may keep it while the page is being built.
    const staging = example();
    staging.widgets[0].environment = 'test';
    staging.widgets[0].webhookUrl = 'https://api.acme-travel.example/hooks/esim';
    expect(parseConfig(staging, 'config.json').widgets[0]?.brand.supportUrl).toBe(SUPPORT_URL_PLACEHOLDER);
  });
});

describe('docs/examples/sandbox.config.json and docs/sandbox.md', () => {
  const read = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');

  it('is a valid partner_confirm config with webhooks on the local sandbox’s base URL (no /v2)', () => {
    const config = parseConfig(JSON.parse(read('docs/examples/sandbox.config.json')), 'sandbox.config.json');
    const [widget] = config.widgets;
    expect(widget?.upstream.baseUrl).toBe(DEFAULT_SANDBOX_URL);
    expect(widget?.checkoutMode).toBe('partner_confirm');
    expect(widget?.webhookSecretEnv).toBeDefined();
    expect(widget?.brand.logoUrl).toBeNull();
    expect(widget?.brand.supportUrl).toBeNull();
  });

  it('names every test key of the sandbox', () => {
    const page = read('docs/sandbox.md');
    expect(Object.values(SANDBOX_KEYS).filter((key) => !page.includes(`\`${key}\``))).toEqual([]);
  });
});
