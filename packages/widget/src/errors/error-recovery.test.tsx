/** Every error code has a message in every locale and a way forward that works. */
import { ApiErrorCodeSchema } from '@esim-embed/shared';
import { fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../api/api-client';
import { WidgetApiError } from '../api/api-error';
import { WidgetContext, type WidgetContextValue } from '../app/widget-context';
import { createTranslator, loadMessages, WIDGET_LOCALES } from '../i18n/translator';
import { defaultConfig } from '../testing/fake-bff';
import { ErrorNotice } from '../ui/error-notice';
import { ERROR_HANDLING } from './error-recovery';

afterEach(() => {
  document.body.replaceChildren();
});

async function context(locale: (typeof WIDGET_LOCALES)[number] = 'en'): Promise<WidgetContextValue> {
  return {
    client: new ApiClient({ apiBase: 'https://bff.test', widgetId: 'acme' }),
    config: defaultConfig,
    locale,
    t: createTranslator(locale, await loadMessages(locale)),
    afterSaleReady: false,
    provideAfterSale: vi.fn(),
    focusSteps: false,
    go: vi.fn(),
    emit: vi.fn(),
    report: vi.fn(),
  };
}

describe('error handling', () => {
  it('covers every code of the API and the widget’s own two', () => {
    const codes = [...ApiErrorCodeSchema.options, 'network_error', 'invalid_response'].sort();
    expect(Object.keys(ERROR_HANDLING).sort()).toEqual(codes);
  });

  it.each(WIDGET_LOCALES)('has a message for every code in %s', async (locale) => {
    const value = await context(locale);
    for (const [code, handling] of Object.entries(ERROR_HANDLING)) {
      const message = value.t(handling.message, { brand: 'Acme' });
      expect(message.length, `${locale} ${code}`).toBeGreaterThan(10);
      expect(message, `${locale} ${code}`).not.toMatch(/\{\w+\}/);
    }
  });

  it.each(Object.entries(ERROR_HANDLING))('offers a way forward for %s', async (code, handling) => {
    const actions = { retry: vi.fn(), requote: vi.fn(), other_plan: vi.fn(), start_over: vi.fn() };
    render(
      <WidgetContext.Provider value={await context()}>
        <ErrorNotice error={new WidgetApiError(code as never, {}, 'req_1')} actions={actions} />
      </WidgetContext.Provider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Reference: req_1');
    if (handling.recovery === 'contact_support') {
      expect(screen.getByRole('link', { name: 'Contact Acme Travel' }).getAttribute('href')).toBe(
        'https://acme.test/help',
      );
      fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
      expect(actions.start_over).toHaveBeenCalledOnce();
    } else {
      const labels = {
        retry: 'Try again',
        requote: 'Get the current price',
        other_plan: 'Choose another plan',
        start_over: 'Start again',
      };
      fireEvent.click(screen.getByRole('button', { name: labels[handling.recovery] }));
      expect(actions[handling.recovery]).toHaveBeenCalledOnce();
    }
  });

  it('falls back to a retry when the step cannot offer the error’s own way forward', async () => {
    const retry = vi.fn();
    render(
      <WidgetContext.Provider value={await context()}>
        <ErrorNotice error={new WidgetApiError('offer_not_found')} actions={{ retry }} />
      </WidgetContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});
