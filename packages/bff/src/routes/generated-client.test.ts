/**
 * A partner's server in another language gets what it needs from `/openapi.json`: Redocly CLI's built-in Go
 * generator (offline, in the dev dependency that lints the document) makes a client of the document the BFF serves,
 * Debian's Go compiles it with a partner's server written on its method names (the operation ids) and its types
 * (the named components) — `testing/go-partner/main.go` — and that server, run against the BFF on the real sandbox,
 * takes a traveller's payment, its answers decoded into those types as the routes' own schemas describe them, and
 * meets the refusals the document lists for the routes it calls.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { apiRoutes, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRedocly } from '../../testing/redocly';
import { call, eventually, PARTNER_SECRET, type Stack, startStack } from '../../testing/stack';
import { checkoutAsTraveller } from '../../testing/traveller-checkout';

const PARTNER_SERVER = fileURLToPath(new URL('../../testing/go-partner/main.go', import.meta.url));

/**
 * Go as the test drives it: modules on, nothing fetched (the generated client needs the standard library only),
 * caches in the temporary folder, no telemetry.
 */
const GO_ENV = {
  ...process.env,
  GO111MODULE: 'on',
  GOFLAGS: '-mod=mod',
  GOPROXY: 'off',
  GOTOOLCHAIN: 'local',
  GOTELEMETRY: 'off',
  GOWORK: 'off',
  CGO_ENABLED: '0',
  GOCACHE: join(tmpdir(), 'esim-embed-go-build'),
  GOPATH: join(tmpdir(), 'esim-embed-gopath'),
};

async function go(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)('go', args, { cwd, env: { ...GO_ENV, ...env } });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('Go is missing: `node scripts/system-deps.mjs` installs Debian’s golang-go', {
        cause: error,
      });
    }
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`go ${args.join(' ')} failed:\n${stderr ?? ''}${stdout ?? ''}`, { cause: error });
  }
}

let stack: Stack;
let folder: string;
beforeAll(async () => {
  stack = await startStack();
  folder = mkdtempSync(join(tmpdir(), 'esim-go-partner-'));
});
afterAll(async () => {
  await stack?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe('a Go client generated from /openapi.json', () => {
  it('compiles with a partner’s server on it, which takes a payment through the BFF on the sandbox', async () => {
    const served = await call(stack.server.url, '/openapi.json');
    expect(served.status).toBe(200);
    writeFileSync(join(folder, 'openapi.json'), served.text);
    mkdirSync(join(folder, 'esimembed'));
    const generated = runRedocly(
      [
        'generate-client',
        'openapi.json',
        '--generator',
        'go',
        '--go-package',
        'esimembed',
        '--output',
        'esimembed/client.ts',
      ],
      { cwd: folder },
    );
    expect(generated.status, `${generated.stdout}${generated.stderr}`).toBe(0);
    expect(existsSync(join(folder, 'esimembed/client.go'))).toBe(true);
    writeFileSync(join(folder, 'go.mod'), 'module esim-embed.test/partner\n\ngo 1.19\n');
    copyFileSync(PARTNER_SERVER, join(folder, 'main.go'));
    await go(['vet', './...'], folder);
    await go(['build', '-o', 'partner', '.'], folder);

    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const reference = `go-pay-${checkoutId}`;
    const { stdout } = await promisify(execFile)(join(folder, 'partner'), {
      env: {
        BFF_URL: stack.server.url,
        PARTNER_SECRET,
        WIDGET_ID: 'shop-pay',
        CHECKOUT_ID: checkoutId,
        PAYMENT_REFERENCE: reference,
      },
    });
    const read = JSON.parse(stdout) as Record<string, unknown>;

    // What the Go server read, as the client decoded it, is what the routes' own schemas describe.
    expect(apiRoutes.health.response.parse(read.health)).toMatchObject({ status: 'ok' });
    expect(apiRoutes.readPartnerAccount.response.parse(read.account).data).toBeDefined();
    expect(apiRoutes.readPartnerCheckout.response.parse(read.awaiting).data).toMatchObject({
      id: checkoutId,
      status: 'awaiting_payment',
    });
    expect(apiRoutes.startPartnerPayment.response.parse(read.started).data.id).toBe(checkoutId);
    const confirmed = apiRoutes.confirmPartnerCheckout.response.parse(read.confirmed).data;
    expect(confirmed).toMatchObject({ id: checkoutId, paymentReference: reference });
    // Fields read through the generated types: the account's currency, the confirmed checkout's status.
    expect(read.currency).toBe('USD');
    expect(read.confirmedStatus).toBe(confirmed.status);
    expect(apiRoutes.listPartnerCheckouts.response.parse(read.found).data.map(({ id }) => id)).toEqual([
      checkoutId,
    ]);

    // Its refusals are those the document lists for the route, under the status they came with.
    const document = served.body as {
      paths: Record<string, Record<string, { responses: Record<string, { 'x-error-codes'?: string[] }> }>>;
    };
    const listed = (path: string, status: number) =>
      document.paths[path]?.get?.responses[status]?.['x-error-codes'] ?? [];
    expect(read.unknown).toEqual({ status: 404, code: 'checkout_not_found' });
    expect(listed(apiRoutes.readPartnerCheckout.path, 404)).toContain('checkout_not_found');
    expect(read.wrongSecret).toEqual({ status: 401, code: 'unauthorized' });
    expect(listed(apiRoutes.readPartnerAccount.path, 401)).toContain('unauthorized');

    // The confirm placed the order: the checkout becomes ready.
    await eventually(async () => {
      const answer = await call(stack.server.url, `/v1/partner/checkouts/${checkoutId}`, {
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      return answer.body?.data?.status === 'ready' ? true : undefined;
    });
  }, 180_000);
});
