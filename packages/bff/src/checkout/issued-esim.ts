/**
 * @module
 * The eSIM a ready checkout issued: its installation data (for the traveller's widget and the partner's server)
 * and delivery links, only while it is not installed; and its id for the traveller's manage link. Once the
 * partner erased the traveller's data at their request, the tab that bought it (its client secret) is refused
 * these as a manage link is (410 `erased`): the BFF no longer leads anyone to that eSIM; the partner's server still
 * reads it.
 */
import type { CreateDeliveryLinkRequest, Installation, WidgetDeliveryLink } from '@esim-embed/shared';
import { ApiError } from '../errors';
import { STORE_KEYS } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import {
  type CheckoutContext,
  hash,
  loadForPartner,
  loadForWidget,
  type SessionCaller,
} from './checkout-context';
import type { CheckoutRecord, Stored } from './checkout-record';
import { assertNotInstalled, installationData } from './esim-detail';

/** The eSIM a ready checkout issued, for a manage link. */
export interface ReadyEsim {
  esimId: string;
  esimResourceUrl: string | null;
  /** When the checkout — and so its client secret — was created (ms since the epoch). */
  checkoutCreatedAtMs: number;
}

/** `installation`, `partnerInstallation`, `createDeliveryLink` and `readyEsimOf` of the checkout service. */
export function issuedEsim(context: CheckoutContext) {
  const { sync, store } = context;

  /** A traveller's own tab is refused the eSIM of a sale whose traveller was erased (as manage links are). */
  async function refuseErased(record: CheckoutRecord, esimId: string | null): Promise<void> {
    const id = esimId ?? record.esimId;
    if (id !== null && (await store.get(STORE_KEYS.esimErased(id))) !== null) {
      throw new ApiError('erased', { params: { resource: 'esim' } });
    }
  }

  async function readyOrder(stored: Stored<CheckoutRecord>, widget: WidgetRuntime) {
    const current = await sync.refresh(stored, widget);
    const order = current.record.order;
    if (current.record.status !== 'ready' || order === null) {
      throw new ApiError('esim_not_found', {
        params: { status: current.record.status, reason: 'not_ready' },
      });
    }
    return { record: current.record, order };
  }

  /**
   * The eSIM a ready `issue` checkout issued, while it is not installed: installation data and delivery links
   * are given for nothing else (a top-up's eSIM was installed long ago; an installed one is on its device).
   */
  async function installableEsim(stored: Stored<CheckoutRecord>, widget: WidgetRuntime) {
    const { record, order } = await readyOrder(stored, widget);
    if (record.kind !== 'issue') throw new ApiError('esim_not_found', { params: { reason: 'top_up' } });
    const resourceUrl = order.esimResourceUrl ?? (await widget.upstream.getOrder(order.id)).esim?.resourceUrl;
    if (resourceUrl === undefined || resourceUrl === null) {
      throw new ApiError('esim_not_found', { params: { reason: 'not_issued' } });
    }
    const esim = await widget.upstream.getEsim(resourceUrl);
    assertNotInstalled(esim);
    return { record, order, esim };
  }

  /** The installation data of a ready checkout's eSIM, as the traveller's widget and the partner's server read it. */
  async function installationOf(
    stored: Stored<CheckoutRecord>,
    widget: WidgetRuntime,
  ): Promise<Installation> {
    const { record, esim } = await installableEsim(stored, widget);
    return { checkoutId: record.id, ...installationData(esim) };
  }

  return {
    async installation(
      caller: SessionCaller,
      id: string,
      clientSecret: string | undefined,
    ): Promise<Installation> {
      const stored = await loadForWidget(context, caller, id, clientSecret);
      await refuseErased(stored.record, stored.record.order?.esimId ?? null);
      return await installationOf(stored, caller.widget);
    },

    async partnerInstallation(
      widgets: ReadonlyMap<string, WidgetRuntime>,
      id: string,
    ): Promise<Installation> {
      const { stored, widget } = await loadForPartner(context, widgets, id);
      return await installationOf(stored, widget);
    },

    async createDeliveryLink(
      caller: SessionCaller,
      id: string,
      clientSecret: string | undefined,
      body: CreateDeliveryLinkRequest,
      idempotencyKey: string,
    ): Promise<WidgetDeliveryLink> {
      const stored = await loadForWidget(context, caller, id, clientSecret);
      await refuseErased(stored.record, stored.record.order?.esimId ?? null);
      const { order } = await installableEsim(stored, caller.widget);
      const link = await caller.widget.upstream.createDeliveryLink(order.id, body, {
        idempotencyKey: `checkout-${id}-link-${hash(`${caller.claims.sid}:${idempotencyKey}`)}`,
      });
      return { id: link.id, url: link.url, maxViews: link.maxViews, expiresAt: link.expiresAt };
    },

    async readyEsimOf(
      caller: SessionCaller,
      id: string,
      clientSecret: string | undefined,
    ): Promise<ReadyEsim> {
      const stored = await loadForWidget(context, caller, id, clientSecret);
      const { record, order } = await readyOrder(stored, caller.widget);
      const checkoutCreatedAtMs = Date.parse(record.createdAt);
      if (record.kind === 'top_up' && record.esimId !== null) {
        return { esimId: record.esimId, esimResourceUrl: null, checkoutCreatedAtMs };
      }
      let esimId = order.esimId;
      let esimResourceUrl = order.esimResourceUrl;
      if (esimId === null) {
        const fresh = await caller.widget.upstream.getOrder(order.id);
        esimId = fresh.esim?.id ?? null;
        esimResourceUrl = fresh.esim?.resourceUrl ?? null;
      }
      if (esimId === null) throw new ApiError('esim_not_found', { params: { reason: 'not_issued' } });
      await refuseErased(record, esimId);
      return { esimId, esimResourceUrl, checkoutCreatedAtMs };
    },
  };
}
