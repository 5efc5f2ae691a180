/**
 * @module
 * The current step of the flow: the first steps are in the app chunk; the install step (with its QR encoder)
 * and the eSIM's own view load lazily, with their after-sale messages, and a failed load offers a retry.
 */
import type { ComponentType } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { WidgetApiError } from '../api/api-error';
import { loadAfterSaleMessages } from '../i18n/translator';
import type { InstallStepProps } from '../install/install-step';
import type { MyEsimStepProps } from '../my-esim/my-esim-step';
import { CheckoutStep } from '../steps/checkout-step';
import { DestinationsStep } from '../steps/destinations-step';
import { PlansStep } from '../steps/plans-step';
import { ProgressStep } from '../steps/progress-step';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import type { Step } from './flow-steps';
import { useWidget } from './widget-context';

/** The step `step` names. */
export function CurrentStep({ step }: { step: Step }) {
  switch (step.name) {
    case 'destinations':
      return <DestinationsStep />;
    case 'plans':
      return <PlansStep destination={step.destination} />;
    case 'progress':
      return <ProgressStep handle={step.handle} resumed={step.resumed} />;
    case 'checkout':
      return (
        <CheckoutStep
          key={step.topUp ? 'top-up' : 'issue'}
          plan={step.plan}
          destination={step.destination}
          topUp={step.topUp}
        />
      );
    case 'install':
      return (
        <LazyStep
          load={loadInstallStep}
          props={{ handle: step.handle, checkout: step.checkout, installation: step.installation }}
        />
      );
    case 'my-esim':
      return (
        <LazyStep
          key={step.manageToken}
          load={loadMyEsimStep}
          props={{ manageToken: step.manageToken, toppedUp: step.toppedUp ?? false }}
        />
      );
  }
}

// The install step (with its QR encoder) and the eSIM's own view load only when they are needed.
const loadInstallStep = () => import('../install/install-step').then((module) => module.InstallStep);
const loadMyEsimStep = () => import('../my-esim/my-esim-step').then((module) => module.MyEsimStep);

/** A step whose code loads lazily; a failed load offers a retry. */
function LazyStep<P extends InstallStepProps | MyEsimStepProps>({
  load,
  props,
}: {
  load: () => Promise<ComponentType<P>>;
  props: P;
}) {
  const { locale, afterSaleReady, provideAfterSale } = useWidget();
  const [Loaded, setLoaded] = useState<ComponentType<P> | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const start = useCallback(() => {
    setFailed(null);
    // The view's code and its messages come together; both are cached after the first load.
    Promise.all([load(), loadAfterSaleMessages(locale)]).then(
      ([component, afterSale]) => {
        provideAfterSale(locale, afterSale);
        setLoaded(() => component);
      },
      (error: unknown) => setFailed(new WidgetApiError('network_error', {}, null, { cause: error })),
    );
  }, [load, locale]);
  useEffect(start, [start]);
  if (failed) return <ErrorNotice error={failed} actions={{ retry: start }} />;
  return Loaded && afterSaleReady ? (
    <Loaded {...props} />
  ) : (
    <span class={controls.spinner} aria-hidden="true" />
  );
}
