/**
 * @module
 * Help requests of the partner's server: a cancellation, refund or reissue of an eSIM it sold, created
 * upstream only when the eSIM's actions say that type is `available` (a browser never creates one), and
 * followed by id. One upstream request per partner `Idempotency-Key` (the upstream key and `externalRef`
 * are derived from it).
 */
import { createHash } from 'node:crypto';
import type {
  ActionReasonCode,
  ActionRequest,
  ActionRequestType,
  CreateActionRequest,
  PartnerActionRequest,
} from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { readEsim } from './esim-view';

/** Which action a reason asks for (the upstream decides the type from the reason the same way). */
export const ACTION_TYPE_BY_REASON: Record<ActionReasonCode, ActionRequestType> = {
  delivery_not_started: 'cancellation',
  unused_profile: 'cancellation',
  duplicate_order: 'cancellation',
  installation_failed: 'reissue',
  profile_unusable: 'reissue',
  service_not_delivered: 'refund',
  service_defective: 'refund',
  duplicate_charge: 'refund',
  other: 'refund',
};

/** The partner's view of an upstream action request. */
export function toPartnerActionRequest(esimId: string, request: ActionRequest): PartnerActionRequest {
  return {
    id: request.id,
    esimId,
    type: request.type,
    status: request.status,
    reason: { code: request.reason.code, detail: request.reason.detail },
    resolution: request.resolution,
    replacementOrderId: request.replacementOrder?.id ?? null,
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
    completedAt: request.completedAt,
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 40);

/** Create an action request for `esimId` if its actions say the reason's type is `available`. */
export async function createActionRequest(
  widget: WidgetRuntime,
  esimId: string,
  body: CreateActionRequest,
  idempotencyKey: string,
): Promise<PartnerActionRequest> {
  const type = ACTION_TYPE_BY_REASON[body.reasonCode];
  const esim = await readEsim(widget, esimId);
  const actions = await widget.upstream.getEsimActions(esim.actionsUrl);
  const action = actions.actions.find((candidate) => candidate.type === type);
  if (action?.availability !== 'available') {
    throw new ApiError('action_not_available', {
      params: { action: type, esimId, availability: action?.availability ?? 'unknown' },
    });
  }
  const ref = `areq-${widget.config.id}-${digest(`${esimId}:${idempotencyKey}`)}`;
  const request = await widget.upstream.createActionRequest(
    esimId,
    {
      externalRef: ref,
      reasonCode: body.reasonCode,
      ...(body.reasonDetail === undefined ? {} : { reasonDetail: body.reasonDetail }),
    },
    { idempotencyKey: ref },
  );
  return toPartnerActionRequest(esimId, request);
}

/** Read an action request through the first of `widgets` whose upstream account knows it. */
export async function readActionRequest(
  widgets: Iterable<WidgetRuntime>,
  requestId: string,
): Promise<PartnerActionRequest> {
  for (const widget of widgets) {
    try {
      const request = await widget.upstream.getActionRequest(requestId);
      return toPartnerActionRequest(await esimIdOfOrder(widget, request.order.id), request);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'action_request_not_found') continue;
      throw error;
    }
  }
  throw new ApiError('action_request_not_found', { params: { actionRequestId: requestId } });
}

/** The eSIM of an order (an action request names the order, not the eSIM). */
async function esimIdOfOrder(widget: WidgetRuntime, orderId: string): Promise<string> {
  const order = await widget.upstream.getOrder(orderId);
  return order.esim?.id ?? order.targetEsimId ?? 'unknown';
}
