/**
 * @module
 * Which widget sold each eSIM (recorded when a checkout first names the eSIM it issued) and made each delivery
 * link (recorded when it is made), read by the partner routes so that a partner reaches only its own widgets'
 * eSIMs and links even when widgets share one upstream key (the upstream account knows everything of the key,
 * whoever sold it). An eSIM sold before this record existed is traced once through its upstream order's
 * `externalRef` — the checkout id — while that checkout is kept.
 */
import { z } from 'zod';
import { retentionMs } from '../config/config-schema';
import { ApiError } from '../errors';
import { STORE_INDEXES, STORE_KEYS, type Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { CheckoutRecord, CheckoutRepository } from './checkout-record';
import { readEsim } from './esim-detail';

/** How long the maker of a delivery link is remembered: longer than a link lives (a day at most). */
const LINK_MAKER_KEPT_MS = 3 * 24 * 60 * 60 * 1000;

/** The stored seller of one eSIM. */
const EsimOwnerSchema = z.object({
  widgetId: z.string(),
  checkoutId: z.string(),
  /** For a reissue's replacement: the eSIM it replaced. */
  replaces: z.string().optional(),
});

/** Who sold one eSIM: the widget and its checkout. */
export type EsimSeller = z.infer<typeof EsimOwnerSchema>;

/** Records and finds the widget that sold an eSIM. */
export interface EsimOwners {
  /** Remember the seller of the eSIM a checkout issued, once it names one (a checkout observer). */
  record(checkout: CheckoutRecord): Promise<void>;
  /**
   * A reissue's replacement eSIM belongs to whoever sold the eSIM it replaces, and joins that widget's eSIM list
   * (the partner's desk) as issued at `issuedAtMs`.
   */
  recordReplacement(esimId: string, replacementEsimId: string, issuedAtMs: number): Promise<void>;
  /** The one of `candidates` (the caller's widgets) that sold `esimId`; `esim_not_found` for any other. */
  sellerAmong(candidates: ReadonlyMap<string, WidgetRuntime>, esimId: string): Promise<WidgetRuntime>;
  /**
   * The widget and checkout that sold `esimId`, as recorded (for a reissue's replacement: the ones that sold the
   * first eSIM), or null.
   */
  sellerOf(esimId: string): Promise<EsimSeller | null>;
  /** Remember that `widgetId` made the delivery link `linkId` (for its traveller or its partner's server). */
  recordLink(linkId: string, widgetId: string): Promise<void>;
  /** The one of `candidates` that made `linkId`; `delivery_link_invalid` for a link none of them made. */
  linkMakerAmong(candidates: ReadonlyMap<string, WidgetRuntime>, linkId: string): Promise<WidgetRuntime>;
}

/** The {@link EsimOwners} kept in `store`; `checkouts` reads the checkout an eSIM is traced to. */
export function createEsimOwners(
  store: Store,
  checkouts: Pick<CheckoutRepository, 'getCheckout'>,
  /**
   * How long the seller of an eSIM is remembered after the sale (`retention.esimDays`): as long as the eSIM is in
   * its seller's list (`checkout-index.ts`), which ends no later. Never renewed.
   */
  esimRetentionMs: number = retentionMs().esimMs,
): EsimOwners {
  const remember = (esimId: string, owner: z.infer<typeof EsimOwnerSchema>) =>
    // First writer wins: a seller is never replaced, whatever a later checkout says.
    store.insert(STORE_KEYS.esimOwner(esimId), JSON.stringify(owner), esimRetentionMs);

  async function recorded(esimId: string): Promise<z.infer<typeof EsimOwnerSchema> | null> {
    const stored = await store.get(STORE_KEYS.esimOwner(esimId));
    if (stored === null) return null;
    const owner = EsimOwnerSchema.safeParse(JSON.parse(stored.value));
    return owner.success ? owner.data : null;
  }

  /** The seller of an eSIM sold before sellers were recorded: its order's externalRef is our checkout id. */
  async function traced(
    candidates: ReadonlyMap<string, WidgetRuntime>,
    esimId: string,
  ): Promise<z.infer<typeof EsimOwnerSchema> | null> {
    const upstreams = new Set<WidgetRuntime['upstream']>();
    for (const widget of candidates.values()) {
      // Widgets sharing one upstream client would answer alike: ask each upstream once.
      if (upstreams.has(widget.upstream)) continue;
      upstreams.add(widget.upstream);
      let checkoutId: string;
      try {
        checkoutId = (await readEsim(widget, esimId)).order.externalRef;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'esim_not_found') continue;
        throw error;
      }
      const checkout = await checkouts.getCheckout(checkoutId);
      if (checkout === null || checkout.record.kind !== 'issue') continue;
      // Another partner's eSIM on a shared key: answered as unknown, and its seller left for its own partner
      // to record (a refused call records nothing).
      if (!candidates.has(checkout.record.widgetId)) return null;
      const owner = { widgetId: checkout.record.widgetId, checkoutId };
      await remember(esimId, owner);
      return owner;
    }
    return null;
  }

  return {
    async record(checkout) {
      const esimId = checkout.order?.esimId ?? null;
      if (checkout.kind !== 'issue' || esimId === null) return;
      await remember(esimId, { widgetId: checkout.widgetId, checkoutId: checkout.id });
    },
    async recordReplacement(esimId, replacementEsimId, issuedAtMs) {
      const owner = await recorded(esimId);
      if (owner === null) return;
      const first = await remember(replacementEsimId, {
        widgetId: owner.widgetId,
        checkoutId: owner.checkoutId,
        replaces: esimId,
      });
      // The replacement's entry ends with its seller's record, written just now (one eSIM retention from now):
      // told again, neither is renewed.
      if (first)
        await store
          .sortedIndex(STORE_INDEXES.esims(owner.widgetId))
          .add(replacementEsimId, issuedAtMs, esimRetentionMs);
    },
    async sellerAmong(candidates, esimId) {
      const owner = (await recorded(esimId)) ?? (await traced(candidates, esimId));
      const widget = owner === null ? undefined : candidates.get(owner.widgetId);
      // Another partner's eSIM reads exactly as an unknown one: nothing to probe.
      if (widget === undefined) throw new ApiError('esim_not_found', { params: { esimId } });
      return widget;
    },
    sellerOf: recorded,
    async recordLink(linkId, widgetId) {
      await store.insert(STORE_KEYS.deliveryLinkMaker(linkId), widgetId, LINK_MAKER_KEPT_MS);
    },
    async linkMakerAmong(candidates, linkId) {
      const maker = (await store.get(STORE_KEYS.deliveryLinkMaker(linkId)))?.value;
      const widget = maker === undefined ? undefined : candidates.get(maker);
      if (widget === undefined)
        throw new ApiError('delivery_link_invalid', { params: { deliveryLinkId: linkId } });
      return widget;
    },
  };
}
