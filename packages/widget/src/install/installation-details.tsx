/**
 * @module
 * How to install an eSIM: the QR code, the install links (the traveller's platform first), the SM-DP+
 * address and activation code to copy, and short steps per platform. Shown after a purchase and again from
 * the eSIM's own view while it is not installed. On a phone the one-tap install links come first and the QR
 * code is offered for another phone or tablet (a phone cannot scan its own screen); on a computer the QR code
 * comes first, for the phone.
 */
import type { Installation } from '@esim-embed/shared';
import { useWidget } from '../flow/widget-context';
import * as controls from '../ui/controls.css';
import { CopyField } from './copy-field';
import * as css from './install-step.css';
import { QrCode } from './qr-code';
import { currentPlatform } from './traveller-platform';

/** What installing takes (the same in a purchase's and in an eSIM's installation data). */
export type InstallationData = Pick<
  Installation,
  'qrPayload' | 'smdpAddress' | 'activationCode' | 'ios' | 'android'
>;

/** Props of `InstallationDetails`. */
export interface InstallationDetailsProps {
  installation: InstallationData;
}

/** The ways to install one eSIM. */
export function InstallationDetails({ installation }: InstallationDetailsProps) {
  const { t } = useWidget();
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

  const qrCode = (
    <div class={css.qrFrame}>
      <QrCode value={installation.qrPayload} label={t('qrLabel')} />
    </div>
  );

  return (
    <>
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
      {platform === 'desktop' ? (
        <>
          <p>{t('qrIntro')}</p>
          {qrCode}
        </>
      ) : (
        <div class={css.installSection}>
          <h3>{t('qrOtherDeviceHeading')}</h3>
          <p>{t('qrOtherDeviceIntro')}</p>
          {qrCode}
        </div>
      )}
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
    </>
  );
}
