/**
 * @module
 * Every order of one sandbox account, read from the sandbox itself a page at a time: what the reliability
 * scenarios count sales against (one upstream order per checkout, none lost).
 */
import { SANDBOX_KEYS } from '@esim-embed/sandbox';

/** An upstream order as the scenarios read it. */
export interface UpstreamOrder {
  id: string;
  externalRef: string;
}

/** Every order of the account `apiKey` opens (default: the test config's `globetrotter`), every page. */
export async function upstreamOrders(
  sandboxUrl: string,
  apiKey: string = SANDBOX_KEYS.globetrotter,
): Promise<UpstreamOrder[]> {
  const orders: UpstreamOrder[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${sandboxUrl}/orders?limit=100${query}`, {
      headers: { 'X-Api-Key': apiKey },
    });
    if (response.status !== 200)
      throw new Error(`the sandbox's orders: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as {
      data: UpstreamOrder[];
      meta: { nextCursor: string | null; hasMore: boolean };
    };
    orders.push(...page.data);
    cursor = page.meta.hasMore ? page.meta.nextCursor : null;
  } while (cursor !== null);
  return orders;
}
