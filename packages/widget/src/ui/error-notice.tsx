/**
 * @module
 * An error as the traveller sees it: what happened, in their language, and the way forward (retry,
 * a fresh price, another plan, start over, or the partner's support). Whether it also tries again by itself is
 * `retryWorth`'s answer (`api/api-error.ts`): a few seconds after a `moment` (the BFF's store unavailable, a
 * create still running elsewhere), as soon as the browser is back online after a lost `connection`.
 */
import { useEffect } from 'preact/hooks';
import { errorCodeOf, retryWorth, WidgetApiError } from '../api/api-error';
import { handlingAfterPayment, handlingOf, type Recovery } from '../errors/error-recovery';
import { useWidget } from '../flow/widget-context';
import * as css from './controls.css';
import { supportHref } from './support-href';

/** How long the notice of a `moment` error waits before it tries again by itself. */
const MOMENT_RETRY_MS = 5000;

/** The ways forward a step can offer; the notice shows the one the error calls for. */
export type RecoveryActions = Partial<Record<Exclude<Recovery, 'contact_support'>, () => void>>;

/** Props of `ErrorNotice`. */
export interface ErrorNoticeProps {
  error: unknown;
  actions: RecoveryActions;
  /** A checkout is under way and may be paid: never say that nothing was charged. */
  afterPayment?: boolean | undefined;
}

/** Shows an error with its way forward. */
export function ErrorNotice({ error, actions, afterPayment = false }: ErrorNoticeProps) {
  const { t, config } = useWidget();
  const code = errorCodeOf(error);
  const handling = afterPayment ? handlingAfterPayment(error) : handlingOf(error);
  const brand = config.brand.displayName;
  const requestId = error instanceof WidgetApiError ? error.requestId : null;
  const retry = actions.retry;
  const worth = retryWorth(error);

  useEffect(() => {
    if (!retry) return;
    // The client already repeated it for a while (its Retry-After waits): the notice tries once more shortly.
    if (worth === 'moment') {
      const timer = setTimeout(retry, MOMENT_RETRY_MS);
      return () => clearTimeout(timer);
    }
    if (worth !== 'connection') return;
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [worth, retry]);

  // The error's own way forward when the step offers it, else a retry, else starting over; when only the
  // partner can help, starting over comes before a retry that would fail the same way.
  const candidates: readonly Exclude<Recovery, 'contact_support'>[] =
    handling.recovery === 'contact_support'
      ? ['start_over', 'retry']
      : [handling.recovery, 'retry', 'start_over'];
  const chosen = candidates.find((recovery) => actions[recovery]);
  const action = chosen ? actions[chosen] : undefined;
  const support = supportHref(config.brand);
  const labels: Record<Exclude<Recovery, 'contact_support'>, string> = {
    retry: t('retry'),
    requote: t('requote'),
    other_plan: t('otherPlan'),
    start_over: t('startOver'),
  };

  return (
    <div class={css.notice} role="alert" part="error" data-code={code}>
      <p>{t(handling.message, { brand })}</p>
      {requestId && <p class={css.hint}>{t('errorReference', { id: requestId })}</p>}
      <div class={css.actions}>
        {action && chosen && (
          <button type="button" class={css.primaryButton} part="button primary-button" onClick={action}>
            {labels[chosen]}
          </button>
        )}
        {support && handling.recovery === 'contact_support' && (
          <a class={css.link} href={support} target="_blank" rel="noopener noreferrer">
            {t('contactSupport', { brand })}
          </a>
        )}
      </div>
    </div>
  );
}
