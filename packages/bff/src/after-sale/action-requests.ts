/**
 * @module
 * Help requests of the partner's server: a cancellation, refund or reissue of an eSIM it sold, created
 * upstream when the eSIM's actions say that type can be requested (`isActionRequestable` of the shared package:
 * the same rule the widget's help panel reports to the page); a browser never creates one. Read back by id, with
 * the eSIM of a completed reissue's replacement order. One upstream request per partner `Idempotency-Key`
 * (the upstream key and `externalRef` are derived from it).
 */
import { createHash } from 'node:crypto';
import {
  ACTION_TYPE_BY_REASON,
  type ActionRequest,
  type CreateActionRequest,
  isActionRequestable,
  type PartnerActionRequest,
} from '@esim-embed/shared';
import { readEsim } from '../checkout/esim-detail';
import { ACTION_REQUEST_REF_PREFIX } from '../checkout/order-references';
import { ApiError } from '../errors';
import type { WidgetRuntime } from '../widgets/widget-runtime';

/** The partner's view of an upstream action request. */
export function toPartnerActionRequest(
  esimId: string,
  request: ActionRequest,
  replacementEsimId: string | null = null,
): PartnerActionRequest {
  return {
    id: request.id,
    esimId,
    type: request.type,
    status: request.status,
    reason: { code: request.reason.code, detail: request.reason.detail },
    resolution: request.resolution,
    replacementOrderId: request.replacementOrder?.id ?? null,
    replacementEsimId,
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
    completedAt: request.completedAt,
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 40);

/** Create an action request for `esimId` if its actions say the reason's type can be requested now. */
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
  if (action === undefined || !isActionRequestable(action)) {
    throw new ApiError('action_not_available', {
      params: {
        action: type,
        esimId,
        availability: action?.availability ?? 'unknown',
        access: action?.access ?? 'none',
        reasonCode: action?.reasonCode ?? 'not_listed',
      },
    });
  }
  const ref = `${ACTION_REQUEST_REF_PREFIX}${widget.config.id}-${digest(`${esimId}:${idempotencyKey}`)}`;
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

/** Read one action request of `widget`'s account; `esimId` when known (else from its order). */
export async function fetchActionRequest(
  widget: WidgetRuntime,
  requestId: string,
  esimId?: string,
): Promise<PartnerActionRequest> {
  const request = await widget.upstream.getActionRequest(requestId);
  const replacement = request.replacementOrder;
  const replacementEsimId =
    replacement === null ? null : ((await widget.upstream.getOrder(replacement.id)).esim?.id ?? null);
  return toPartnerActionRequest(
    esimId ?? (await esimIdOfOrder(widget, request.order.id)),
    request,
    replacementEsimId,
  );
}

/** Read an action request through the first of `widgets` whose upstream account knows it. */
export async function findActionRequest(
  widgets: Iterable<WidgetRuntime>,
  requestId: string,
): Promise<{ widget: WidgetRuntime; request: PartnerActionRequest }> {
  for (const widget of widgets) {
    try {
      return { widget, request: await fetchActionRequest(widget, requestId) };
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
