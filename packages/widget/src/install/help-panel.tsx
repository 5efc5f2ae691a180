/**
 * @module
 * Help with an eSIM, from the install step and the eSIM's own view: "the installation failed" or "the eSIM
 * is not working" shows what to try and the partner's support contacts (from the brand), and tells the host
 * page through `esim-help` (with the eSIM, the reason and the action requests available), so that the
 * partner's server can act. The browser never requests a refund, a cancellation or a reissue itself.
 */
import { type EsimActionView, requestableActionTypes } from '@esim-embed/shared';
import { useState } from 'preact/hooks';
import { type EsimHelpDetail, EsimHelpEvent, type EsimHelpReason } from '../events';
import { useWidget } from '../flow/widget-context';
import type { MessageKey } from '../i18n/messages';
import * as controls from '../ui/controls.css';
import * as installCss from './install-step.css';

const REASONS: Record<EsimHelpReason, { label: MessageKey; advice: MessageKey }> = {
  installation_failed: { label: 'helpInstallFailed', advice: 'helpInstallFailedAdvice' },
  service_defective: { label: 'helpNotWorking', advice: 'helpNotWorkingAdvice' },
};

/** Props of `HelpPanel`. */
export interface HelpPanelProps {
  /** The eSIM, when known. */
  esimId: string | null;
  /** The purchase, when the help comes from the install step. */
  checkoutId: string | null;
  /** The problems the traveller can report here, in order. */
  reasons: readonly EsimHelpReason[];
  /** The eSIM's post-sale actions as last reported (empty when unknown). */
  actions: readonly EsimActionView[];
}

/** "Need help?" with the partner's support contacts. */
export function HelpPanel({ esimId, checkoutId, reasons, actions }: HelpPanelProps) {
  const { t, config, emit } = useWidget();
  const [reason, setReason] = useState<EsimHelpReason | null>(null);
  const brand = config.brand;

  function ask(chosen: EsimHelpReason) {
    setReason(chosen);
    // The same rule the BFF's action-request endpoint enforces: what is offered here can be requested there.
    const availableActions: EsimHelpDetail['availableActions'] = requestableActionTypes(actions);
    emit(new EsimHelpEvent({ esimId, checkoutId, reason: chosen, availableActions }));
  }

  return (
    <div class={installCss.installSection}>
      <h3>{t('helpHeading')}</h3>
      <div class={controls.actions}>
        {reasons.map((entry) => (
          <button
            key={entry}
            type="button"
            class={controls.button}
            part="button"
            aria-expanded={reason === entry}
            aria-controls="esim-help-advice"
            onClick={() => ask(entry)}
          >
            {t(REASONS[entry].label)}
          </button>
        ))}
      </div>
      <div id="esim-help-advice" aria-live="polite">
        {reason && (
          // On the surface, not on a raised card: the brand colour as link text is contrast-checked there.
          <div class={controls.infoNotice}>
            <p>{t(REASONS[reason].advice, { brand: brand.displayName })}</p>
            <p class={controls.actions}>
              {brand.supportUrl && (
                <a class={controls.link} href={brand.supportUrl} target="_blank" rel="noopener noreferrer">
                  {t('contactSupport', { brand: brand.displayName })}
                </a>
              )}
              {brand.supportEmail && (
                <a class={controls.link} href={`mailto:${brand.supportEmail}`}>
                  {t('helpEmail', { email: brand.supportEmail })}
                </a>
              )}
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
