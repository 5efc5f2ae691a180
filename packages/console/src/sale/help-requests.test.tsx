/**
 * A sale's help request form offers each role the reasons it may give: support is offered cancellations and
 * reissues, never a refund's reason (a refund moves money: the BFF answers support `403`); an admin every reason.
 */
import type { ConsoleRole, ConsoleSalePage, ConsoleSession } from '@esim-embed/shared/console';
import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ConsoleClient } from '../api/console-client';
import { ConsoleContext } from '../app/console-context';
import { en } from '../i18n/en';
import { createTranslator } from '../i18n/translator';
import { HelpRequests } from './help-requests';

const PAGE = {
  checkout: { id: 'chk_1', esimId: 'esim_1' },
  helpRequests: [],
} as unknown as ConsoleSalePage;

/** The reasons the form offers `role`. */
function reasonsOffered(role: ConsoleRole): string[] {
  const session: ConsoleSession = {
    user: { id: 'usr_1', username: 'ada', role, secondFactor: false, via: 'password' },
    partnerId: 'acme',
    widgets: [],
    csrfToken: 'csrf-token-0123456789',
    idleExpiresAt: '2026-11-29T12:00:00.000Z',
    expiresAt: '2026-11-29T20:00:00.000Z',
  };
  const { unmount } = render(
    <ConsoleContext.Provider
      value={{
        client: new ConsoleClient((async () => new Response(null, { status: 500 })) as typeof fetch),
        session,
        locale: 'en',
        t: createTranslator('en', en),
      }}
    >
      <HelpRequests page={PAGE} onChanged={() => {}} />
    </ConsoleContext.Provider>,
  );
  const options = [...screen.getByLabelText('Reason').querySelectorAll('option')].map(
    (option) => option.value,
  );
  unmount();
  return options;
}

describe('the help request form', () => {
  it('offers support no refund, and an admin every reason', () => {
    expect(reasonsOffered('support')).toEqual([
      'delivery_not_started',
      'unused_profile',
      'duplicate_order',
      'installation_failed',
      'profile_unusable',
    ]);
    expect(reasonsOffered('admin')).toHaveLength(9);
    expect(reasonsOffered('admin')).toContain('service_not_delivered');
  });
});
