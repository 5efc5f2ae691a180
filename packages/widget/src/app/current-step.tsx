/**
 * @module
 * The current step of the flow: the first steps are in the app chunk; the order's progress (fetched ahead while
 * the traveller is at the checkout), the install step (with its QR encoder) and the eSIM's own view load lazily,
 * the last two with their after-sale messages, and a failed load offers a retry.
 */
import type { ComponentType } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { WidgetApiError } from '../api/api-error';
import type { Step } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { loadAfterSaleMessages } from '../i18n/translator';
import type { InstallStepProps } from '../install/install-step';
import type { MyEsimStepProps } from '../my-esim/my-esim-step';
import { CheckoutStep } from '../steps/checkout-step';
import { DestinationsStep } from '../steps/destinations-step';
import { PlansStep } from '../steps/plans-step';
import type { ProgressStepProps } from '../steps/progress-step';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';

/** The step `step` names. */
export function CurrentStep({ step }: { step: Step }) {
  // The next step after the checkout is the order's progress: its code is on the way before the traveller buys.
  useEffect(() => {
    if (step.name === 'checkout') loadProgressStep().catch(() => undefined);
  }, [step.name]);
  switch (step.name) {
    case 'destinations':
      return <DestinationsStep />;
    case 'plans':
      return <PlansStep destination={step.destination} />;
    case 'progress':
      return (
        <LazyStep
          load={loadProgressStep}
          props={{ handle: step.handle, resumed: step.resumed }}
          afterSale={false}
        />
      );
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

// The progress, the install step (with its QR encoder) and the eSIM's own view load only when they are needed.
const loadProgressStep = () => import('../steps/progress-step').then((module) => module.ProgressStep);
const loadInstallStep = () => import('../install/install-step').then((module) => module.InstallStep);
const loadMyEsimStep = () => import('../my-esim/my-esim-step').then((module) => module.MyEsimStep);

/** A step whose code loads lazily (with the after-sale messages unless `afterSale` is false); a failed load offers a retry. */
function LazyStep<P extends ProgressStepProps | InstallStepProps | MyEsimStepProps>({
  load,
  props,
  afterSale: withAfterSale = true,
}: {
  load: () => Promise<ComponentType<P>>;
  props: P;
  afterSale?: boolean;
}) {
  const { locale, afterSaleReady, provideAfterSale } = useWidget();
  const [Loaded, setLoaded] = useState<ComponentType<P> | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const start = useCallback(() => {
    setFailed(null);
    // The view's code and its messages come together; both are cached after the first load.
    Promise.all([load(), withAfterSale ? loadAfterSaleMessages(locale) : null]).then(
      ([component, afterSale]) => {
        if (afterSale) provideAfterSale(locale, afterSale);
        setLoaded(() => component);
      },
      (error: unknown) => setFailed(new WidgetApiError('network_error', {}, null, { cause: error })),
    );
  }, [load, locale, withAfterSale]);
  useEffect(start, [start]);
  if (failed) return <ErrorNotice error={failed} actions={{ retry: start }} />;
  return Loaded && (afterSaleReady || !withAfterSale) ? (
    <Loaded {...props} />
  ) : (
    <span class={controls.spinner} aria-hidden="true" />
  );
}
