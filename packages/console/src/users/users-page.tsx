/**
 * @module
 * The partner's console users (admins only): each with their role (changeable), second factor, last sign-in
 * and whether disabled; and the form that adds one, which shows the new second factor once — as a QR code to
 * scan and as its secret to type.
 */
import type { ConsoleRole, ConsoleUser, CreatedConsoleUser } from '@esim-embed/shared/console';
import { useConsole } from '../app/console-context';
import type { PageProps } from '../app/console-route';
import { useRemote } from '../hooks/use-remote';
import { useWrite } from '../hooks/use-write';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatDateTime } from '../ui/formatters';
import { DataTable } from '../ui/table-scroll';
import { SecondFactorCode } from './second-factor-code';

const ROLES: readonly ConsoleRole[] = ['viewer', 'support', 'admin'];
const ROLE_NAMES = { viewer: 'roleViewer', support: 'roleSupport', admin: 'roleAdmin' } as const;

/** The users page. */
export function UsersPage(_: PageProps) {
  const { client, locale, t } = useConsole();
  const users = useRemote((signal) => client.call('listUsers', { signal }), []);
  const add = useWrite<CreatedConsoleUser>();
  const change = useWrite<ConsoleUser>();

  function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    add
      .run(() =>
        client.call('addUser', {
          body: {
            username: String(data.get('username')),
            password: String(data.get('password')),
            role: String(data.get('role')),
            secondFactor: data.get('secondFactor') === 'on',
          },
        }),
      )
      .then(() => {
        form.reset();
        users.reload();
      });
  }

  const changeUser = (id: string, body: { role?: ConsoleRole; disabled?: boolean }) =>
    change.run(() => client.call('changeUser', { params: { id }, body })).then(users.reload);

  return (
    <>
      <h1>{t('usersHeading')}</h1>
      {users.error !== undefined && <ErrorNotice error={users.error} />}
      {change.error !== undefined && <ErrorNotice error={change.error} />}
      {users.data && (
        <div class={controls.card}>
          <DataTable
            label={t('usersHeading')}
            columns={[t('userName'), t('userRole'), t('secondFactor'), t('lastSignIn'), t('status')]}
          >
            {users.data.map((user) => (
              <tr key={user.id} data-user={user.username}>
                <th scope="row" class={controls.code}>
                  {user.username}
                </th>
                <td>
                  <select
                    class={controls.input}
                    aria-label={t('changeRole', { name: user.username })}
                    value={user.role}
                    disabled={change.busy}
                    onChange={(event) =>
                      changeUser(user.id, { role: event.currentTarget.value as ConsoleRole })
                    }
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {t(ROLE_NAMES[role])}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{user.secondFactor ? t('yes') : t('no')}</td>
                <td>{user.lastSignInAt ? formatDateTime(user.lastSignInAt, locale) : t('never')}</td>
                <td>
                  {user.disabled && <span class={controls.tag}>{t('disabled')}</span>}{' '}
                  <button
                    class={controls.button}
                    type="button"
                    disabled={change.busy}
                    onClick={() => changeUser(user.id, { disabled: !user.disabled })}
                  >
                    {user.disabled ? t('enable') : t('disable')}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}

      <section class={controls.card} aria-labelledby="users-add">
        <h2 id="users-add">{t('addUser')}</h2>
        <form class={controls.form} onSubmit={submit}>
          <label class={controls.field}>
            {t('userName')}
            <input class={controls.input} name="username" autoComplete="off" required />
          </label>
          <label class={controls.field}>
            {t('newPassword')}
            <input
              class={controls.input}
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={12}
              required
            />
          </label>
          <label class={controls.field}>
            {t('userRole')}
            <select class={controls.input} name="role">
              {ROLES.map((role) => (
                <option key={role} value={role} selected={role === 'support'}>
                  {t(ROLE_NAMES[role])}
                </option>
              ))}
            </select>
          </label>
          <label>
            <input name="secondFactor" type="checkbox" defaultChecked /> {t('withSecondFactor')}
          </label>
          {add.error !== undefined && <ErrorNotice error={add.error} />}
          <button class={controls.primaryButton} type="submit" disabled={add.busy}>
            {t('add')}
          </button>
        </form>
        {add.result && (
          <div role="status">
            <p class={controls.successNotice}>{t('userAdded', { name: add.result.user.username })}</p>
            {add.result.otpauthUri && <SecondFactorCode uri={add.result.otpauthUri} />}
          </div>
        )}
      </section>
    </>
  );
}
