/**
 * @module
 * An error as the traveller sees it: what happened, in their language, and the way forward (retry,
 * a fresh price, another plan, start over, or the partner's support). When the way forward is a retry, the
 * notice may also try again by itself, and then says when (`retry-by-itself.ts`).
 */
import { errorCodeOf, WidgetApiError } from '../api/api-error';
import { handlingAfterPayment, handlingOf, type Recovery } from '../errors/error-recovery';
import { useWidget } from '../flow/widget-context';
import * as css from './controls.css';
import { useRetryByItself } from './retry-by-itself';
import { supportHref } from './support-href';

/** The ways forward a step can offer; the notice shows the one the error calls for. */
export type RecoveryActions = Partial<Record<Exclude<Recovery, 'contact_support'>, () => void>>;

/** Props of `ErrorNotice`. */
export interface ErrorNoticeProps {
  error: unknown;
  actions: RecoveryActions;
  /** A checkout is under way and may be paid: never say that nothing was charged. */
  afterPayment?: boolean | undefined;
  /**
   * How many times in a row the step's request has failed, this time included: given only where its `retry` is
   * safe to repeat without the traveller (`retry-by-itself.ts`), which lets a passing failure be retried by itself.
   */
  failures?: number | undefined;
}

/** Shows an error with its way forward. */
export function ErrorNotice({ error, actions, afterPayment = false, failures }: ErrorNoticeProps) {
  const { t, config } = useWidget();
  const code = errorCodeOf(error);
  const handling = afterPayment ? handlingAfterPayment(error) : handlingOf(error);
  const brand = config.brand.displayName;
  const requestId = error instanceof WidgetApiError ? error.requestId : null;
  // Never by itself where the way forward is anything but the same request again.
  const pause = useRetryByItself(error, handling.recovery === 'retry' ? actions.retry : undefined, failures);

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
      {pause !== null && <p class={css.hint}>{t('retryingIn', { n: pause / 1000 })}</p>}
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
