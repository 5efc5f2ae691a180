/**
 * @module
 * The help requests the partner made through this BFF, as its support desk lists them: newest first, by widget,
 * filtered by status or eSIM through sorted indexes the help-request watch keeps as it records each status (never
 * a scan). Each is answered as the BFF last read it from the upstream; reading one by id asks afresh.
 */
import type { ActionRequestListQuery, PartnerActionRequest } from '@esim-embed/shared';
import { PartnerActionRequestSchema } from '@esim-embed/shared';
import { z } from 'zod';
import type { ListPage, ListPosition } from '../store/index-pages';
import { readIndexPage } from '../store/index-pages';
import { STORE_KEYS, type Store } from '../store/store';

/** The names of the sorted indexes a help request is in (members: request ids; score: its `createdAt`, ms). */
export const ACTION_REQUEST_INDEXES = {
  /** Every request of one widget. */
  all: (widgetId: string) => `action-requests:${widgetId}`,
  /** One widget's requests in one status. */
  status: (widgetId: string, status: string) => `action-requests:${widgetId}:status:${status}`,
  /** One widget's requests about one eSIM. */
  esim: (widgetId: string, esimId: string) => `action-requests:${widgetId}:esim:${esimId}`,
} as const;

/** The desk's filters, as the query validated them. */
export type ActionRequestFilters = Pick<ActionRequestListQuery, 'status' | 'esimId'>;

/** The part of a stored help request the desk reads: its widget and its last view (records of the release before have none). */
const DeskRecordSchema = z.looseObject({
  widgetId: z.string(),
  view: z.unknown().optional(),
});

/** The index of one widget that holds the fewest of the requests a filter asks for. */
function indexFor(widgetId: string, filters: ActionRequestFilters): string {
  if (filters.esimId !== undefined) return ACTION_REQUEST_INDEXES.esim(widgetId, filters.esimId);
  if (filters.status !== undefined) return ACTION_REQUEST_INDEXES.status(widgetId, filters.status);
  return ACTION_REQUEST_INDEXES.all(widgetId);
}

/** One page of the help requests of `widgetIds` (the caller's), newest first, after `after`. */
export async function listActionRequests(
  store: Store,
  widgetIds: readonly string[],
  filters: ActionRequestFilters,
  after: ListPosition | null,
  limit: number,
): Promise<ListPage<PartnerActionRequest>> {
  const own = new Set(widgetIds);
  return await readIndexPage({
    store,
    names: widgetIds.map((widgetId) => indexFor(widgetId, filters)),
    fromScore: -Infinity,
    toScore: Infinity,
    after,
    limit,
    resolve: async (entry) => {
      const stored = await store.get(STORE_KEYS.actionRequest(entry.member));
      if (stored === null) return undefined;
      const record = DeskRecordSchema.parse(JSON.parse(stored.value));
      // Only the caller's widgets', whatever an index holds; a view this release cannot read is left out.
      if (!own.has(record.widgetId)) return undefined;
      const view = PartnerActionRequestSchema.safeParse(record.view);
      if (!view.success) return undefined;
      const fits =
        (filters.status === undefined || view.data.status === filters.status) &&
        (filters.esimId === undefined || view.data.esimId === filters.esimId);
      return fits ? view.data : undefined;
    },
  });
}
