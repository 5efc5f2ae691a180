/**
 * @module
 * The widget's context for a component rendered alone in a test (an error notice, a step's part): the default
 * config, a client that no test answers, the messages of `locale`, and every callback a spy.
 */
import { vi } from 'vitest';
import { ApiClient } from '../src/api/api-client';
import type { WidgetContextValue } from '../src/flow/widget-context';
import { createTranslator, loadMessages, type WIDGET_LOCALES } from '../src/i18n/translator';
import { defaultConfig } from './fake-bff';

/** A {@link WidgetContextValue} in `locale` (default English). */
export async function testWidgetContext(
  locale: (typeof WIDGET_LOCALES)[number] = 'en',
): Promise<WidgetContextValue> {
  return {
    client: new ApiClient({ apiBase: 'https://bff.test', widgetId: 'acme' }),
    config: defaultConfig,
    locale,
    t: createTranslator(locale, await loadMessages(locale)),
    tablesReady: new Set(),
    provideTables: vi.fn(),
    paymentRetry: 'widget',
    focusSteps: false,
    go: vi.fn(),
    emit: vi.fn(),
    report: vi.fn(),
  };
}
