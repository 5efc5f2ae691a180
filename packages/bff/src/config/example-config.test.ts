/**
 * The example configs in the reseller docs are valid configs, and the sandbox page names every test key, so the
 * docs cannot drift from the schema or the sandbox.
 */
import { readFileSync } from 'node:fs';
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_URL } from './default-config';
import { parseConfig } from './load-config';

describe('docs/examples/bff.config.json', () => {
  it('is valid', () => {
    const path = new URL('../../../../docs/examples/bff.config.json', import.meta.url);
    const config = parseConfig(JSON.parse(readFileSync(path, 'utf8')), 'docs/examples/bff.config.json');
    expect(config.widgets.map((widget) => widget.checkoutMode)).toEqual(['partner_confirm', 'direct']);
    expect(config.trustedProxyHops).toBe(1);
    expect(config.widgets[0]?.webhookSecretEnv).toBe('ACME_WEBHOOK_SECRET');
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
  });

  it('names every test key of the sandbox', () => {
    const page = read('docs/sandbox.md');
    expect(Object.values(SANDBOX_KEYS).filter((key) => !page.includes(`\`${key}\``))).toEqual([]);
  });
});
