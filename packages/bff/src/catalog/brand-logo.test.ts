/**
 * The upstream account's logo over HTTP: the contract's logo is a PNG, JPEG or GIF by content, so an
 * extension-less CDN URL reaches the widget and an SVG one does not (a relay in front of the sandbox sets it).
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openWidget, type RunningBff, startBff } from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';

let sandbox: RunningSandbox;
let relay: TestRelay;
let bff: RunningBff | undefined;
beforeAll(async () => {
  sandbox = await startSandbox();
  relay = await startTestRelay(sandbox.url);
});
afterEach(async () => {
  await bff?.server.close();
  bff = undefined;
});
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

/** The logo the widget's session carries when the upstream account's brand names `logoUrl`. */
async function sessionLogo(logoUrl: string): Promise<string | null> {
  relay.hooks.rewrite = (request, body) => {
    if (!request.path.endsWith('/account')) return body;
    const answer = body as { data: { brand: Record<string, unknown>; brandOverrides: unknown } };
    return {
      ...answer,
      data: { ...answer.data, brand: { ...answer.data.brand, logoUrl }, brandOverrides: null },
    };
  };
  bff = await startBff(relay.url, { sessionSecret: randomBytes(32) });
  const page = await openWidget(bff.server.url, 'shop');
  return page.session.widget.brand.logoUrl;
}

describe('the upstream account logo', () => {
  it('passes without a file extension', async () => {
    expect(await sessionLogo('https://cdn.partner.example/logos/4711?w=256')).toBe(
      'https://cdn.partner.example/logos/4711?w=256',
    );
  });

  it('is refused as SVG, which the contract does not allow', async () => {
    expect(await sessionLogo('https://cdn.partner.example/logos/acme.svg')).toBeNull();
  });
});
