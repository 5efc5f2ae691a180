/**
 * The partner's help requests listed by its support desk, over HTTP against the real sandbox: newest first, each
 * as the BFF last read it (a status the upstream moved to shows once the BFF read it), filtered by status and by
 * eSIM from the watch's indexes, paged by cursors bound to their filters.
 */
import { PARTNER_SECRET_HEADER, type PartnerActionRequest } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim } from '../../testing/after-sale-flow';
import {
  call,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
} from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  // No background watch: a request's status changes in the BFF only when the test reads it.
  stack = await startStack({ config: testConfig, bffOptions: { startWorkers: false } });
});
afterAll(async () => {
  await stack?.close();
});

const partner = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  call(stack.server.url, path, {
    method,
    body,
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
  });
const idsOf = async (path: string) => {
  const answer = await partner('GET', path);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.data as PartnerActionRequest[]).map((request) => request.id);
};

describe('the help requests of the partner’s widgets', () => {
  it('are listed newest first as last read, filtered by status and eSIM, page by page', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const [first, second] = [await buyEsim(page), await buyEsim(page)];
    const ask = async (esimId: string, reasonCode: string) => {
      const created = await partner('POST', `/v1/partner/esims/${esimId}/action-requests`, { reasonCode });
      expect(created.status, created.text).toBe(201);
      return created.body.data as PartnerActionRequest;
    };
    const older = await ask(first.esimId, 'service_defective');
    // Distinct creation times upstream, so that "newest first" is the order they were asked in.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const newer = await ask(second.esimId, 'service_defective');

    const listed = await partner('GET', '/v1/partner/action-requests');
    expect(listed.body.data.slice(0, 2)).toEqual([newer, older]);
    expect(listed.body.nextCursor).toBeNull();
    expect(await idsOf(`/v1/partner/action-requests?esimId=${first.esimId}`)).toEqual([older.id]);

    // The upstream rejects the older one; the list shows it once the BFF has read it.
    await stack.sandbox.control.resolveActionRequest(older.id, {
      outcome: 'rejected',
      resolution: { code: 'service_confirmed', note: 'The network logs show data use.' },
    });
    expect((await partner('GET', `/v1/partner/action-requests/${older.id}`)).status).toBe(200);
    expect(await idsOf('/v1/partner/action-requests?status=rejected')).toEqual([older.id]);
    expect(await idsOf(`/v1/partner/action-requests?status=${newer.status}`)).toEqual([newer.id]);
    expect(await idsOf(`/v1/partner/action-requests?status=rejected&esimId=${second.esimId}`)).toEqual([]);

    const firstPage = await partner('GET', '/v1/partner/action-requests?limit=1');
    expect(firstPage.body.data.map((request: PartnerActionRequest) => request.id)).toEqual([newer.id]);
    const cursor = encodeURIComponent(firstPage.body.nextCursor);
    const nextPage = await partner('GET', `/v1/partner/action-requests?limit=1&cursor=${cursor}`);
    expect(nextPage.body.data).toMatchObject([{ id: older.id, status: 'rejected' }]);
    expect(nextPage.body.nextCursor).toBeNull();
    const otherFilter = await partner(
      'GET',
      `/v1/partner/action-requests?limit=1&status=rejected&cursor=${cursor}`,
    );
    expect(otherFilter.status).toBe(400);
    expect(otherFilter.body.error).toEqual({
      code: 'validation_failed',
      params: { field: 'cursor', reason: 'invalid' },
    });
  });
});
