/**
 * @module
 * Step 6, loaded lazily with the QR encoder: the QR code, the install links (the traveller's platform
 * first), the SM-DP+ address and activation code to copy, short steps per platform, and "send to my phone"
 * for a traveller on a computer.
 */
import type { Checkout, Installation } from '@esim-embed/shared';
import type { CheckoutHandle } from '../app/flow-steps';
import { forgetCheckout } from '../app/flow-steps';
import { useWidget } from '../app/widget-context';
import * as controls from '../ui/controls.css';
import { StepHeading } from '../ui/step-heading';
import { CopyField } from './copy-field';
import * as css from './install-step.css';
import { QrCode } from './qr-code';
import { SendToPhone } from './send-to-phone';
import { currentPlatform } from './traveller-platform';

/** Props of `InstallStep`. */
export interface InstallStepProps {
  handle: CheckoutHandle;
  checkout: Checkout;
  installation: Installation;
}

/** The installation of a ready eSIM. */
export function InstallStep({ handle, installation }: InstallStepProps) {
  const { t, go, config } = useWidget();
  const platform = currentPlatform();
  const platforms = platform === 'android' ? (['android', 'ios'] as const) : (['ios', 'android'] as const);
  const links = {
    ios: { href: installation.ios, text: t('installIos') },
    android: { href: installation.android, text: t('installAndroid') },
  };
  const steps = {
    ios: { heading: t('iosStepsHeading'), items: t('iosSteps').split('|') },
    android: { heading: t('androidStepsHeading'), items: t('androidSteps').split('|') },
  };

  function buyAnother() {
    forgetCheckout(config.widgetId);
    go({ name: 'destinations' });
  }

  return (
    <section>
      <StepHeading>{t('installHeading')}</StepHeading>
      <p>{t('installIntro')}</p>
      {platform !== 'desktop' && (
        <div class={controls.actions}>
          {platforms.map((name, index) => (
            <a
              key={name}
              class={index === 0 ? css.installLinkPrimary : css.installLinkSecondary}
              part={index === 0 ? 'primary-button' : 'button'}
              href={links[name].href}
              target="_blank"
              rel="noopener noreferrer"
            >
              {links[name].text}
            </a>
          ))}
        </div>
      )}
      <p>{t('qrIntro')}</p>
      <div class={css.qrFrame}>
        <QrCode value={installation.qrPayload} label={t('qrLabel')} />
      </div>
      {platform === 'desktop' && (
        <div class={controls.actions}>
          {platforms.map((name) => (
            <a
              key={name}
              class={css.installLinkSecondary}
              part="button"
              href={links[name].href}
              target="_blank"
              rel="noopener noreferrer"
            >
              {links[name].text}
            </a>
          ))}
        </div>
      )}
      <div class={css.installSection}>
        <h3>{t('manualHeading')}</h3>
        <CopyField label={t('smdpLabel')} value={installation.smdpAddress} />
        <CopyField label={t('activationLabel')} value={installation.activationCode} />
      </div>
      {platforms.map((name) => (
        <div key={name} class={css.installSection}>
          <h3>{steps[name].heading}</h3>
          <ol>
            {steps[name].items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ol>
        </div>
      ))}
      {platform === 'desktop' && <SendToPhone handle={handle} />}
      <div class={css.installSection}>
        <button type="button" class={controls.button} part="button" onClick={buyAnother}>
          {t('buyAnother')}
        </button>
      </div>
    </section>
  );
}
