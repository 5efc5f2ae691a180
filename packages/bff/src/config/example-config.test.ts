/**
 * The example config in the reseller docs is a valid config, so the docs cannot drift from the schema.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
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
