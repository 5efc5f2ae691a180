/**
 * The console's start, against answers of the console API's shape: signed out it shows the sign-in; a user with a
 * second factor is asked for the code (the field takes the focus) and then lands on the sales search, whose field
 * has the focus; a support user's navigation has no admin sections.
 */
import { API_VERSION } from '@esim-embed/shared';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../api/console-client';
import { ConsoleApp } from './console-app';

const META = { requestId: 'req_1', apiVersion: API_VERSION };
const SESSION = {
  user: { id: 'usr_1', username: 'ada', role: 'support', secondFactor: true, via: 'password' },
  partnerId: 'acme',
  widgets: [{ id: 'acme', displayName: 'Acme', environment: 'test' }],
  csrfToken: 'csrf-token-0123456789',
  idleExpiresAt: '2026-11-29T12:00:00.000Z',
  expiresAt: '2026-11-29T20:00:00.000Z',
};
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A console API that knows one user, `ada`, whose sign-in needs the code `123456`. */
function fakeApi() {
  const signIns: unknown[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    if (url === '/console/api/session' && method === 'GET') {
      return json(401, { error: { code: 'unauthorized', params: { reason: 'session' } }, meta: META });
    }
    if (url === '/console/api/session' && method === 'POST') {
      const body = JSON.parse(String(init.body)) as { totp?: string };
      signIns.push(body);
      if (body.totp === undefined) {
        return json(401, {
          error: { code: 'unauthorized', params: { reason: 'second_factor' } },
          meta: META,
        });
      }
      return json(200, { data: SESSION, meta: META });
    }
    if (url.startsWith('/console/api/sales')) return json(200, { data: [], nextCursor: null, meta: META });
    return json(404, { error: { code: 'not_found', params: {} }, meta: META });
  }) as unknown as typeof fetch;
  return { client: new ConsoleClient(fetchImpl), signIns };
}

/** Submits the sign-in form, as its button does. */
function submit() {
  const form = screen.getByRole('button', { name: 'Sign in' }).closest('form');
  if (!form) throw new Error('no sign-in form');
  fireEvent.submit(form);
}

afterEach(() => {
  location.hash = '';
});

describe('the console app', () => {
  it('asks for the second factor’s code, then opens the sales search with the focus in its field', async () => {
    const { client, signIns } = fakeApi();
    render(<ConsoleApp client={client} />);
    fireEvent.input(await screen.findByLabelText('User name'), { target: { value: 'ada' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
    submit();

    const code = await screen.findByLabelText('Code from your authenticator app');
    await waitFor(() => expect(document.activeElement).toBe(code));
    fireEvent.input(code, { target: { value: '123456' } });
    submit();

    const search = await screen.findByLabelText('Search');
    await waitFor(() => expect(document.activeElement).toBe(search));
    expect(signIns).toEqual([
      { username: 'ada', password: 'correct horse battery' },
      { username: 'ada', password: 'correct horse battery', totp: '123456' },
    ]);
    expect(client.csrfToken).toBe(SESSION.csrfToken);
    expect(screen.getByText('Signed in as ada (support)')).toBeTruthy();
    // A support user's sections: no users, no audit log.
    expect(screen.getByRole('link', { name: 'Sales' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Audit log' })).toBeNull();
  });
});
