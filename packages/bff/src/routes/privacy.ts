/**
 * @module
 * The partner's privacy routes: `POST /v1/partner/privacy/erasures` (erase one traveller's data: queued, answered
 * `202` with the receipt pending), `GET /v1/partner/privacy/erasures/{id}` (the receipt as it stands) and
 * `POST /v1/partner/privacy/exports` (every datum held about them). Behind the partner auth, over the widgets the
 * secret opens only; docs/privacy.md says what each erases and answers.
 */
import { PrivacySubjectSchema } from '@esim-embed/shared';
import type { Context } from 'hono';
import { answerJson, answerMeta } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { readJsonBody } from '../http/json-body';
import { newErasureId, type PrivacyErasures } from '../privacy/privacy-erasures';
import { exportTraveller, type PrivacyExportOptions } from '../privacy/privacy-export';
import type { RouteHandlers } from './mount-routes';

export interface PrivacyRoutesOptions {
  erasures: PrivacyErasures;
  /** What the export reads. */
  exports: PrivacyExportOptions;
}

type PrivacyRouteId =
  | 'createPartnerPrivacyErasure'
  | 'readPartnerPrivacyErasure'
  | 'exportPartnerPrivacyData';

/** Personal data: kept by no cache. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** The privacy routes (behind the partner auth; the erasure idempotent). */
export function privacyHandlers(options: PrivacyRoutesOptions): RouteHandlers<PrivacyRouteId> {
  async function createPartnerPrivacyErasure(c: Context<AppEnv>) {
    const subject = await readJsonBody(c, PrivacySubjectSchema);
    // Chosen with the idempotency key: a retry after a lost holder finishes the same erasure.
    const id = c.get('idempotentResourceId') ?? newErasureId();
    const receipt = await options.erasures.request(c.get('partnerWidgets'), subject, id);
    return answerJson(c, { data: receipt, meta: answerMeta(c) }, 202, NO_STORE);
  }

  async function readPartnerPrivacyErasure(c: Context<AppEnv>) {
    const receipt = await options.erasures.read(c.get('partnerWidgets'), c.req.param('id') ?? '');
    return answerJson(c, { data: receipt, meta: answerMeta(c) }, 200, NO_STORE);
  }

  async function exportPartnerPrivacyData(c: Context<AppEnv>) {
    const subject = await readJsonBody(c, PrivacySubjectSchema);
    const held = await exportTraveller(options.exports, c.get('partnerWidgets'), subject);
    return answerJson(c, { data: held, meta: answerMeta(c) }, 200, NO_STORE);
  }

  return {
    createPartnerPrivacyErasure: {
      handle: createPartnerPrivacyErasure,
      idempotency: {
        resourceId: newErasureId,
        // A retry reads the receipt as it stands now (pending, then completed), under the same erasure id.
        secret: {
          leaveOut: (data) => data,
          putBack: async (c, kept) => await options.erasures.read(c.get('partnerWidgets'), String(kept.id)),
        },
      },
    },
    readPartnerPrivacyErasure,
    exportPartnerPrivacyData,
  };
}
