/**
 * @module
 * What every page of the console reads: the API client, the session (who, which partner's widgets, the role),
 * the language and its translator.
 */
import type { Locale } from '@esim-embed/shared';
import { type ConsoleRole, type ConsoleSession, roleAllows } from '@esim-embed/shared/console';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ConsoleClient } from '../api/console-client';
import type { Translate } from '../i18n/messages';

/** The console's context. */
export interface ConsoleContextValue {
  readonly client: ConsoleClient;
  readonly session: ConsoleSession;
  readonly locale: Locale;
  readonly t: Translate;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

/** The console's context, with `can(role)`: whether the signed-in user holds that role's rights. */
export function useConsole(): ConsoleContextValue & { can: (needed: ConsoleRole) => boolean } {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the console: render the page inside <ConsoleShell>');
  return { ...value, can: (needed) => roleAllows(value.session.user.role, needed) };
}
