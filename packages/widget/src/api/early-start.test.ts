/**
 * The start sent by the element as it connects: the app's client reads that answer instead of asking again
 * (which also holds the two addresses together), sends it again when it failed, and asks itself for any other.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { ApiClient } from './api-client';
import { sendStartEarly } from './early-start';

const START = /^\/v1\/widgets\/acme\/start$/;

function clientReading(early: ReturnType<typeof sendStartEarly>, widgetId = 'acme') {
  if (!early) throw new Error('the early start was not sent');
  return new ApiClient({
    apiBase: 'https://bff.test/',
    widgetId,
    fetch: early.fetch,
    networkRetryDelays: [1],
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('sendStartEarly', () => {
  it('sends the start at once, and the client takes its answer without asking again', async () => {
    const bff = new FakeBff();
    vi.stubGlobal('fetch', bff.fetch);
    const early = sendStartEarly('https://bff.test/', 'acme');
    expect(bff.requestsTo('GET', START)).toHaveLength(1);
    const client = clientReading(early);
    await expect(client.start()).resolves.toMatchObject({ widget: { widgetId: 'acme' } });
    // The client's other reads go out as usual.
    await client.destinations('en');
    expect(bff.requestsTo('GET', START)).toHaveLength(1);
    expect(bff.requestsTo('GET', /\/destinations$/)).toHaveLength(1);
  });

  it('sends the start again when the early one failed, so the client’s own reading applies', async () => {
    const bff = new FakeBff();
    vi.stubGlobal('fetch', bff.fetch);
    bff.failNext('GET', START, 'network');
    const early = sendStartEarly('https://bff.test', 'acme');
    await expect(clientReading(early).start()).resolves.toMatchObject({ widget: { widgetId: 'acme' } });
    expect(bff.requestsTo('GET', START)).toHaveLength(2);
  });

  it('answers only the same widget’s start, and only once', async () => {
    const bff = new FakeBff();
    vi.stubGlobal('fetch', bff.fetch);
    const early = sendStartEarly('https://bff.test', 'acme');
    const other = clientReading(early, 'other');
    await other.start().catch(() => undefined);
    expect(bff.requestsTo('GET', /^\/v1\/widgets\/other\/start$/)).toHaveLength(1);
    await clientReading(early).start();
    await clientReading(early).start();
    expect(bff.requestsTo('GET', START)).toHaveLength(2);
  });

  it('sends nothing without a widget id', () => {
    const bff = new FakeBff();
    vi.stubGlobal('fetch', bff.fetch);
    expect(sendStartEarly('https://bff.test', '')).toBeNull();
    expect(bff.requests).toHaveLength(0);
  });
});
