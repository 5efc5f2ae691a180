/**
 * Stopping a listening server: it takes no new connection, lets the requests under way finish, and cuts one still
 * running after its drain, so that a stop always ends (the background work's wait and the forced exit come after).
 */
import { createServer, get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen } from './node-server';

/** A GET of `url`: its status and body, or the error that ended it. */
function fetchRaw(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', (error) => resolve({ error: error.message }));
    }).on('error', (error) => resolve({ error: error.message }));
  });
}

describe('a stop of a listening server', () => {
  it('lets a request under way finish', async () => {
    let started!: () => void;
    const arrived = new Promise<void>((resolve) => {
      started = resolve;
    });
    const server = createServer((_request, response) => {
      started();
      setTimeout(() => response.end('done'), 150);
    });
    const listening = await listen(server, { drainMs: 5_000 });
    const answer = fetchRaw(listening.url);
    await arrived;
    await listening.close();
    expect(await answer).toEqual({ status: 200, body: 'done' });
  });

  it('cuts a request still running after the drain, and ends', async () => {
    let started!: () => void;
    const arrived = new Promise<void>((resolve) => {
      started = resolve;
    });
    // A route held up forever (an upstream that never answers).
    const server = createServer(() => started());
    const listening = await listen(server, { drainMs: 200 });
    const answer = fetchRaw(listening.url);
    await arrived;
    const stopping = performance.now();
    await listening.close();
    const tookMs = performance.now() - stopping;
    expect(tookMs).toBeGreaterThanOrEqual(190);
    expect(tookMs).toBeLessThan(5_000);
    expect(await answer).toHaveProperty('error');
    expect(server.listening).toBe(false);
  });
});
