/**
 * @module
 * An API refusal said in the staff member's words: their role's limit, a thing not found, or the code to pass on.
 */
import { ConsoleApiError } from '../api/console-api-error';
import { useConsole } from '../app/console-context';
import * as controls from './controls.css';

/** The words for an error of the console API (or any other failure). */
export function ErrorNotice({ error }: { error: unknown }) {
  const { t } = useConsole();
  const code = error instanceof ConsoleApiError ? error.code : 'internal';
  const text =
    code === 'forbidden'
      ? t('errorForbidden')
      : code.endsWith('not_found')
        ? t('errorNotFound')
        : t('errorGeneric', { code });
  return (
    <p class={controls.errorNotice} role="alert">
      {text}
    </p>
  );
}
