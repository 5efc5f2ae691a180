/**
 * @module
 * What a console list's cursor is bound to (`http/list-page.ts` signs it): a key of the console's own, the
 * partner and the list with its filters — so a cursor of another partner, list or search is refused.
 */
import type { CursorBinding } from '../http/list-page';
import type { ConsolePartner } from './console-partners';

/** The binding of one list of one partner. */
export const consoleCursor = (key: string, partner: ConsolePartner, list: string): CursorBinding => ({
  partnerSecret: key,
  list: `console ${partner.id} ${list}`,
});
