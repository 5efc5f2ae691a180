/** Every error code has a message in every locale and a way forward that works. */
import { ApiErrorCodeSchema } from '@esim-embed/shared';
import { fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testWidgetContext } from '../../testing/widget-context';
import { WidgetApiError } from '../api/api-error';
import { WidgetContext } from '../flow/widget-context';
import { WIDGET_LOCALES } from '../i18n/translator';
import { ErrorNotice } from '../ui/error-notice';
import { ERROR_HANDLING } from './error-recovery';

afterEach(() => {
  document.body.replaceChildren();
});

describe('error handling', () => {
  it('covers every code of the API and the widget’s own two', () => {
    const codes = [...ApiErrorCodeSchema.options, 'network_error', 'invalid_response'].sort();
    expect(Object.keys(ERROR_HANDLING).sort()).toEqual(codes);
  });

  it.each(WIDGET_LOCALES)('has a message for every code in %s', async (locale) => {
    const value = await testWidgetContext(locale);
    for (const [code, handling] of Object.entries(ERROR_HANDLING)) {
      const message = value.t(handling.message, { brand: 'Acme' });
      expect(message.length, `${locale} ${code}`).toBeGreaterThan(10);
      expect(message, `${locale} ${code}`).not.toMatch(/\{\w+\}/);
    }
  });

  it.each(Object.entries(ERROR_HANDLING))('offers a way forward for %s', async (code, handling) => {
    const actions = { retry: vi.fn(), requote: vi.fn(), other_plan: vi.fn(), start_over: vi.fn() };
    render(
      <WidgetContext.Provider value={await testWidgetContext()}>
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

  it('tries again by itself a few seconds after the store was unavailable', async () => {
    const retry = vi.fn();
    const value = await testWidgetContext();
    vi.useFakeTimers();
    try {
      render(
        <WidgetContext.Provider value={value}>
          <ErrorNotice error={new WidgetApiError('store_unavailable')} actions={{ retry }} />
        </WidgetContext.Provider>,
      );
      expect(screen.getByRole('alert').textContent).toContain('Please try again in a moment.');
      await vi.advanceTimersByTimeAsync(4000);
      expect(retry).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1500);
      expect(retry).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('tries again by itself once online after a lost connection, and a moment after a create running elsewhere', async () => {
    const value = await testWidgetContext();
    const online = vi.fn();
    const { unmount } = render(
      <WidgetContext.Provider value={value}>
        <ErrorNotice error={new WidgetApiError('network_error')} actions={{ retry: online }} />
      </WidgetContext.Provider>,
    );
    expect(online).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('online'));
    expect(online).toHaveBeenCalledOnce();
    unmount();
    const moment = vi.fn();
    vi.useFakeTimers();
    try {
      render(
        <WidgetContext.Provider value={value}>
          <ErrorNotice
            error={new WidgetApiError('idempotency_conflict', { reason: 'in_progress' })}
            actions={{ retry: moment }}
          />
        </WidgetContext.Provider>,
      );
      window.dispatchEvent(new Event('online'));
      expect(moment).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(5500);
      expect(moment).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('repeats a create still running elsewhere instead of starting over; funding refusals offer another plan', async () => {
    const value = await testWidgetContext();
    const cases = [
      [
        new WidgetApiError('idempotency_conflict', { reason: 'in_progress' }),
        'Try again',
        /try again in a moment/,
      ],
      [
        new WidgetApiError('idempotency_conflict', { reason: 'different_request' }),
        'Start again',
        /went wrong/,
      ],
      [
        new WidgetApiError('account_not_active', { stage: 'before_payment' }),
        'Choose another plan',
        /cannot sell this plan right now\. You have not been charged\./,
      ],
      [new WidgetApiError('account_not_active'), 'Start again', /not available on this website/],
    ] as const;
    for (const [error, label, text] of cases) {
      const actions = { retry: vi.fn(), other_plan: vi.fn(), start_over: vi.fn() };
      const { unmount } = render(
        <WidgetContext.Provider value={value}>
          <ErrorNotice error={error} actions={actions} />
        </WidgetContext.Provider>,
      );
      expect(screen.getByRole('alert').textContent).toMatch(text);
      expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([label]);
      unmount();
    }
  });

  it('falls back to a retry when the step cannot offer the error’s own way forward', async () => {
    const retry = vi.fn();
    render(
      <WidgetContext.Provider value={await testWidgetContext()}>
        <ErrorNotice error={new WidgetApiError('offer_not_found')} actions={{ retry }} />
      </WidgetContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});
