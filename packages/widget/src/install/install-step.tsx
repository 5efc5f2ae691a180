/**
 * @module
 * Step 6, loaded lazily with the QR encoder: how to install the eSIM just bought, "send to my phone" for a
 * traveller on a computer, the link that brings the traveller back to this eSIM later, and help when the
 * installation fails.
 */
import type { Checkout, Installation, ManageLink } from '@esim-embed/shared';
import { useState } from 'preact/hooks';
import type { CheckoutHandle } from '../flow/flow-steps';
import { forgetCheckout } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import * as controls from '../ui/controls.css';
import { StepHeading } from '../ui/step-heading';
import { HelpPanel } from './help-panel';
import * as css from './install-step.css';
import { InstallationDetails } from './installation-details';
import { ManageLinkOffer } from './manage-link-offer';
import { SendToPhone } from './send-to-phone';
import { currentlyAtComputer } from './traveller-platform';

/** Props of `InstallStep`. */
export interface InstallStepProps {
  handle: CheckoutHandle;
  checkout: Checkout;
  installation: Installation;
}

/** The installation of a ready eSIM. */
export function InstallStep({ handle, installation }: InstallStepProps) {
  const { t, go, config } = useWidget();
  const [manageLink, setManageLink] = useState<ManageLink | null>(null);

  function buyAnother() {
    forgetCheckout(config.widgetId);
    go({ name: 'destinations' });
  }

  return (
    <section>
      <StepHeading>{t('installHeading')}</StepHeading>
      <InstallationDetails installation={installation} />
      {currentlyAtComputer() && <SendToPhone handle={handle} />}
      <ManageLinkOffer handle={handle} onCreated={setManageLink} />
      <HelpPanel
        esimId={manageLink?.esimId ?? null}
        checkoutId={handle.id}
        reasons={['installation_failed', 'service_defective']}
        actions={[]}
      />
      <div class={css.installSection}>
        <button type="button" class={controls.button} part="button" onClick={buyAnother}>
          {t('buyAnother')}
        </button>
      </div>
    </section>
  );
}
