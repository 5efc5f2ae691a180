/**
 * @module
 * "My eSIM", loaded lazily: the view a manage link opens (`#esim=<widget id>.<token>`). The plan, data used and
 * left with how fresh the figures are, the activation and expiry dates, the installation again while the
 * eSIM is not installed, top-up, and help.
 */
import type { EsimView } from '@esim-embed/shared';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { errorCodeOf, WidgetApiError } from '../api/api-error';
import { useWidget } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';
import { formatDateTime } from '../i18n/formatters';
import type { MessageKey } from '../i18n/messages';
import { HelpPanel } from '../install/help-panel';
import * as installCss from '../install/install-step.css';
import type { InstallationDetailsProps } from '../install/installation-details';
import { forgetManageToken } from '../install/manage-link-address';
import { useRemoteData } from '../steps/remote-data';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { PlanSummary } from '../ui/plan-summary';
import { StepHeading } from '../ui/step-heading';
import * as css from './my-esim.css';
import { TopUpOffers } from './top-up-offers';
import { UsageSummary } from './usage-summary';

/** Props of `MyEsimStep`. */
export interface MyEsimStepProps {
  manageToken: string;
  /** A top-up of this eSIM has just completed. */
  toppedUp: boolean;
}

const STATE_NOTICES: Partial<Record<EsimView['state'], MessageKey>> = {
  expired: 'stateExpired',
  depleted: 'stateDepleted',
  revoked: 'stateRevoked',
};

/** The eSIM's own view. */
export function MyEsimStep({ manageToken, toppedUp }: MyEsimStepProps) {
  const { client, t, locale, config, go } = useWidget();
  const [data, reload] = useRemoteData(() => client.myEsim(manageToken, locale), `${manageToken} ${locale}`);
  const buyAnother = () => go({ name: 'destinations' });
  const refusal = data.state === 'failed' ? errorCodeOf(data.error) : null;
  // The BFF answers a tampered, expired or revoked manage token as an invalid session.
  const linkRefused = refusal === 'widget_session_invalid';
  // A link of a traveller erased at their request (`erased`) never opens again either; the error notice says why.
  const linkDead = linkRefused || refusal === 'erased';
  // A refused link is not kept for the next reload of this tab.
  useEffect(() => {
    if (linkDead) forgetManageToken(config.widgetId);
  }, [linkDead, config.widgetId]);

  if (data.state === 'loading') {
    return (
      <section aria-busy="true">
        <StepHeading>{t('myEsimHeading')}</StepHeading>
        <span class={controls.spinner} aria-hidden="true" />
        {t('loading')}
      </section>
    );
  }
  if (data.state === 'failed') {
    return (
      <section>
        <StepHeading>{t('myEsimHeading')}</StepHeading>
        {linkRefused ? (
          <div class={controls.notice} role="alert" part="error" data-code="manage_link_invalid">
            <p>{t('manageLinkInvalid', { brand: config.brand.displayName })}</p>
            <div class={controls.actions}>
              <button type="button" class={controls.button} part="button" onClick={buyAnother}>
                {t('buyAnother')}
              </button>
            </div>
          </div>
        ) : (
          <ErrorNotice
            error={data.error}
            failures={data.failures}
            actions={{ retry: reload, start_over: buyAnother }}
          />
        )}
      </section>
    );
  }

  const view = data.value;
  const stateNotice = STATE_NOTICES[view.state];
  const plan = view.plan;
  return (
    <section>
      <StepHeading>{t('myEsimHeading')}</StepHeading>
      <div aria-live="polite">
        {toppedUp && (
          <p class={controls.infoNotice} role="status">
            {t('toppedUp')}
          </p>
        )}
      </div>
      <div class={controls.card}>
        {plan ? <PlanSummary plan={plan} destination={plan.destination} /> : <p>{t('planUnknown')}</p>}
        {stateNotice && <p>{t(stateNotice)}</p>}
      </div>

      <div class={installCss.installSection}>
        <h3>{t('usageHeading')}</h3>
        <UsageSummary usage={view.usage} />
      </div>

      <div class={installCss.installSection}>
        <h3>{t('datesHeading')}</h3>
        <dl class={css.dates}>
          <dt>{t('activatedAt')}</dt>
          <dd class={css.dateValue}>
            {view.activation.activatedAt
              ? formatDateTime(view.activation.activatedAt, locale)
              : t('notActivated')}
          </dd>
          {!view.activation.activatedAt && view.activation.deadlineAt && (
            <>
              <dt>{t('activateBy')}</dt>
              <dd class={css.dateValue}>{formatDateTime(view.activation.deadlineAt, locale)}</dd>
            </>
          )}
          {view.activation.serviceExpiresAt && (
            <>
              <dt>{t('validUntil')}</dt>
              <dd class={css.dateValue}>{formatDateTime(view.activation.serviceExpiresAt, locale)}</dd>
            </>
          )}
        </dl>
      </div>

      {!view.installed && <InstallAgain manageToken={manageToken} />}

      <TopUpOffers esimId={view.esimId} manageToken={manageToken} topUp={view.topUp} checkAgain={reload} />

      <HelpPanel
        esimId={view.esimId}
        checkoutId={null}
        reasons={view.installed ? ['service_defective', 'installation_failed'] : ['installation_failed']}
        actions={view.actions}
      />

      <div class={installCss.installSection}>
        <button type="button" class={controls.button} part="button" onClick={buyAnother}>
          {t('buyAnother')}
        </button>
      </div>
    </section>
  );
}

/**
 * The installation again, for an eSIM that is not installed yet: the data is fetched, and the QR encoder
 * loaded, only when the traveller asks for it.
 */
function InstallAgain({ manageToken }: { manageToken: string }) {
  const { client, t } = useWidget();
  const [shown, setShown] = useState<{
    Details: ComponentType<InstallationDetailsProps>;
    installation: InstallationDetailsProps['installation'];
  } | null>(null);

  const show = useWriteAction(async () => {
    const [module, installation] = await Promise.all([
      import('../install/installation-details').catch((cause: unknown) => {
        throw new WidgetApiError('network_error', {}, null, { cause });
      }),
      client.myEsimInstallation(manageToken),
    ]);
    setShown({ Details: module.InstallationDetails, installation });
  });

  return (
    <div class={installCss.installSection}>
      <h3>{t('installHeading')}</h3>
      {shown ? (
        <shown.Details installation={shown.installation} />
      ) : (
        <>
          <p>{t('notInstalled')}</p>
          <button
            type="button"
            class={controls.primaryButton}
            part="button primary-button"
            disabled={show.busy}
            aria-busy={show.busy}
            onClick={show.run}
          >
            {t('showInstallation')}
          </button>
        </>
      )}
      {show.error !== null && (
        <ErrorNotice error={show.error} failures={show.failures} actions={{ retry: show.run }} />
      )}
    </div>
  );
}
