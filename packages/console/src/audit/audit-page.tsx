/**
 * @module
 * The audit log (admins only): every sign-in and every write in the console, newest first — who, what, when and
 * on what — with "More" following the list's cursor.
 */
import type { ConsoleAuditEntry } from '@esim-embed/shared/console';
import { useState } from 'preact/hooks';
import { useConsole } from '../app/console-context';
import type { PageProps } from '../app/console-route';
import { useRemote } from '../hooks/use-remote';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatDateTime } from '../ui/formatters';
import { DataTable } from '../ui/table-scroll';

/** The audit page. */
export function AuditPage(_: PageProps) {
  const { client, locale, t } = useConsole();
  const first = useRemote((signal) => client.call('listAudit', { signal }), []);
  const [later, setLater] = useState<
    { entries: ConsoleAuditEntry[]; nextCursor: string | null } | undefined
  >();
  const [error, setError] = useState<unknown>();
  const entries = [...(first.data?.data ?? []), ...(later?.entries ?? [])];
  const nextCursor = later ? later.nextCursor : first.data?.nextCursor;

  async function more() {
    if (!nextCursor) return;
    try {
      const page = await client.call('listAudit', { query: { cursor: nextCursor } });
      setLater({ entries: [...(later?.entries ?? []), ...page.data], nextCursor: page.nextCursor });
    } catch (failure) {
      setError(failure);
    }
  }

  const facts = (entry: ConsoleAuditEntry) =>
    Object.entries({ ...entry.target, ...entry.detail })
      .map(([name, value]) => `${name}: ${value}`)
      .join(', ');

  return (
    <>
      <h1>{t('auditHeading')}</h1>
      {first.error !== undefined && <ErrorNotice error={first.error} />}
      {error !== undefined && <ErrorNotice error={error} />}
      {first.data && (
        <div class={controls.card}>
          <DataTable label={t('auditHeading')} columns={[t('when'), t('who'), t('action'), t('details')]}>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDateTime(entry.at, locale)}</td>
                <td class={controls.code}>{entry.actor.username}</td>
                <td>{t(`action_${entry.action}`)}</td>
                <td class={`${controls.muted} ${controls.code}`}>{facts(entry)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
      {nextCursor && (
        <button class={controls.button} type="button" onClick={more}>
          {t('more')}
        </button>
      )}
    </>
  );
}
