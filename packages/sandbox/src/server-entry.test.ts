/**
 * The Node entry as a reseller starts it: `src/server.ts` in a child process with no sandbox variable set
 * must use the default step delays, so an order moves from `paid` to `delivered` on its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { OrderResponseSchema, UpstreamQuoteResponseSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from './seed/accounts';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Starts the entry with only a free port chosen for it and resolves with its URL from the start-up log line. */
async function startEntry(): Promise<{ child: ChildProcess; url: string }> {
  // No PATH/HOME either: the entry must not depend on anything in the environment but what it documents.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: PACKAGE_DIR,
    env: { SANDBOX_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${stderr}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        if (!line.includes('sandbox listening')) continue;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
  });
  return { child, url };
}

describe('the sandbox started with an empty environment', () => {
  let entry: { child: ChildProcess; url: string };
  beforeAll(async () => {
    entry = await startEntry();
  }, 30_000);
  afterAll(async () => {
    if (entry.child.exitCode !== null) return;
    entry.child.kill('SIGTERM');
    await once(entry.child, 'exit');
  });

  it('provisions an order with the default step delays', async () => {
    const headers = { 'X-Api-Key': SANDBOX_KEYS.globetrotter, 'Content-Type': 'application/json' };
    const post = async (path: string, body: unknown) =>
      fetch(`${entry.url}${path}`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify(body),
      });

    const quoteResponse = await post('/quotes', { offerId: 'off_fr_5gb-30d_1' });
    expect(quoteResponse.status).toBe(201);
    const quote = UpstreamQuoteResponseSchema.parse(await quoteResponse.json());
    const orderResponse = await post('/orders', {
      quoteId: quote.data.id,
      externalRef: 'chk_entry_1',
      recipient: { email: 'ada@example.com', locale: 'en' },
    });
    expect(orderResponse.status).toBe(201);
    const order = OrderResponseSchema.parse(await orderResponse.json());
    expect(order.data.status).toBe('paid');

    // The defaults deliver in about 2.3 s; 10 s leaves room for a busy machine, not for an order stuck in `paid`.
    const seen = new Set<string>();
    const deadline = Date.now() + 10_000;
    let status = order.data.status;
    while (status !== 'delivered' && status !== 'completed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const read = await fetch(`${entry.url}/orders/${order.data.id}`, { headers });
      status = OrderResponseSchema.parse(await read.json()).data.status;
      seen.add(status);
    }
    expect(status, `states seen: ${[...seen].join(', ')}`).toMatch(/^(delivered|completed)$/);
    expect(seen.has('provisioning')).toBe(true);
  }, 20_000);
});
