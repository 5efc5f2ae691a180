/**
 * @module
 * What every step needs, handed down once: the API client, the widget's public config, the translator,
 * the formatters, navigation and the host element (to fire events).
 */
import type { Locale, WidgetPublicConfig } from '@esim-embed/shared';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from '../api/api-client';
import type { EsimPaymentRetry } from '../events';
import type { LazyTables } from '../i18n/messages';
import type { Translate } from '../i18n/translator';
import type { Step } from './flow-steps';

/**
 * The widget's shared state, provided by the shell. `client`, `provideTables`, `go`, `emit` and `report` keep
 * their identity for the shell's whole life (`biome.json` declares them stable results of `useWidget` to the hook
 * dependency lint); the rest change with the start, the language and the messages.
 */
export interface WidgetContextValue {
  client: ApiClient;
  config: WidgetPublicConfig;
  locale: Locale;
  t: Translate;
  /** The lazy tables `t` knows (in the current locale). */
  tablesReady: ReadonlySet<keyof LazyTables>;
  /** Adds lazy tables of a locale, loaded by a lazy step. */
  provideTables(locale: Locale, tables: Partial<LazyTables>): void;
  /** After a declined payment, who offers the next attempt: the widget, or the host page's own form. */
  paymentRetry: EsimPaymentRetry;
  /** Whether a step's heading takes focus when it appears (after the first navigation). */
  focusSteps: boolean;
  /** Moves to another step and focuses its heading. */
  go(step: Step): void;
  /** Fires a DOM event from the host element. */
  emit(event: Event): void;
  /** Reports an error to the host page (`esim-error`); the step shows it to the traveller itself. */
  report(error: unknown): void;
}

export const WidgetContext = createContext<WidgetContextValue | null>(null);

/** The widget's shared state; only inside the shell. */
export function useWidget(): WidgetContextValue {
  const value = useContext(WidgetContext);
  if (!value) throw new Error('useWidget() is used outside <WidgetShell>; render steps inside it');
  return value;
}
