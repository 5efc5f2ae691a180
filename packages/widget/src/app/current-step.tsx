/**
 * @module
 * The current step of the flow: the destinations are in the app chunk; every other step loads lazily. The plans
 * and the checkout come in one chunk, fetched ahead while the traveller reads the destinations; the order's
 * progress is fetched ahead while the traveller is at the checkout. Every lazy step loads with the purchase's
 * messages (fetched ahead with the plans); the install step (with its QR encoder) and the eSIM's own view with
 * the after-sale messages too. A failed load offers a retry.
 */

import type { Locale } from '@esim-embed/shared';
import type { ComponentType } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { WidgetApiError } from '../api/api-error';
import type { Step } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import type { LazyTables } from '../i18n/messages';
import { loadLazyMessages } from '../i18n/translator';
import type { InstallStepProps } from '../install/install-step';
import type { MyEsimStepProps } from '../my-esim/my-esim-step';
import type { CheckoutStepProps } from '../steps/checkout-step';
import { DestinationsStep } from '../steps/destinations-step';
import type { PlansStepProps } from '../steps/plans-step';
import type { ProgressStepProps } from '../steps/progress-step';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';

/** The step `step` names. */
export function CurrentStep({ step }: { step: Step }) {
  const { locale } = useWidget();
  const prefetch = useCallback(() => prefetchPurchaseSteps(locale), [locale]);
  // The next step after the checkout is the order's progress: its code is on the way before the traveller buys.
  useEffect(() => {
    if (step.name === 'checkout') loadProgressStep().catch(() => undefined);
  }, [step.name]);
  // Keyed by the step's name: a step that loaded never shows another step's component.
  switch (step.name) {
    case 'destinations':
      return <DestinationsStep onShown={prefetch} />;
    case 'plans':
      return (
        <LazyStep
          key="plans"
          load={loadPlansStep}
          props={{ destination: step.destination }}
          tables={PURCHASE}
        />
      );
    case 'progress':
      return (
        <LazyStep
          key="progress"
          load={loadProgressStep}
          props={{ handle: step.handle, resumed: step.resumed }}
          tables={PURCHASE}
        />
      );
    case 'checkout':
      return (
        <LazyStep
          key={step.topUp ? 'checkout top-up' : 'checkout'}
          load={loadCheckoutStep}
          props={{ plan: step.plan, destination: step.destination, topUp: step.topUp, resume: step.resume }}
          tables={PURCHASE}
        />
      );
    case 'install':
      return (
        <LazyStep
          key="install"
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

/** The tables of the purchase's steps, and of the after-sale views (which show a purchase's words too). */
const PURCHASE: readonly (keyof LazyTables)[] = ['purchase'];
const AFTER_SALE: readonly (keyof LazyTables)[] = ['purchase', 'afterSale'];

// Every step but the destinations loads only when it is needed (or fetched ahead, above).
const loadPlansStep = () => import('../steps/purchase-steps').then((module) => module.PlansStep);
const loadCheckoutStep = () => import('../steps/purchase-steps').then((module) => module.CheckoutStep);
const loadProgressStep = () => import('../steps/progress-step').then((module) => module.ProgressStep);
const loadInstallStep = () => import('../install/install-step').then((module) => module.InstallStep);
const loadMyEsimStep = () => import('../my-esim/my-esim-step').then((module) => module.MyEsimStep);

/**
 * The plans and the checkout, with the purchase's messages in `locale`, are fetched while the traveller reads the
 * destinations: once the list is shown (not before: on a slow network they would share its bandwidth) and the
 * browser is idle.
 */
function prefetchPurchaseSteps(locale: Locale): () => void {
  return whenIdle(() => {
    loadPlansStep().catch(() => undefined);
    loadLazyMessages('purchase', locale).catch(() => undefined);
  });
}

/** Runs `task` once the browser is idle (soon, where it cannot tell); returns the cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(task, 0);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(task);
  return () => cancelIdleCallback(idle);
}

/** The props of the steps that load lazily. */
type LazyStepProps =
  | PlansStepProps
  | CheckoutStepProps
  | ProgressStepProps
  | InstallStepProps
  | MyEsimStepProps;

/**
 * Each lazy step's component once its code has loaded: a step shown again (or next in the same chunk) draws at
 * once, without a frame of spinner.
 */
const loadedSteps = new Map<() => Promise<unknown>, unknown>();

/** A step whose code loads lazily with its message `tables` (default: the after-sale views'); a failed load offers a retry. */
function LazyStep<P extends LazyStepProps>({
  load,
  props,
  tables = AFTER_SALE,
}: {
  load: () => Promise<ComponentType<P>>;
  props: P;
  tables?: readonly (keyof LazyTables)[];
}) {
  const { locale, tablesReady, provideTables } = useWidget();
  const [Loaded, setLoaded] = useState<ComponentType<P> | null>(
    () => (loadedSteps.get(load) as ComponentType<P> | undefined) ?? null,
  );
  const [failed, setFailed] = useState<unknown>(null);
  const start = useCallback(() => {
    setFailed(null);
    // The view's code and its messages come together; both are cached after the first load.
    Promise.all([
      load(),
      Promise.all(tables.map(async (name) => [name, await loadLazyMessages(name, locale)] as const)),
    ]).then(
      ([component, loaded]) => {
        loadedSteps.set(load, component);
        provideTables(locale, Object.fromEntries(loaded) as Partial<LazyTables>);
        setLoaded(() => component);
      },
      (error: unknown) => setFailed(new WidgetApiError('network_error', {}, null, { cause: error })),
    );
  }, [load, locale, tables]);
  useEffect(start, [start]);
  if (failed) return <ErrorNotice error={failed} actions={{ retry: start }} />;
  return Loaded && tables.every((name) => tablesReady.has(name)) ? (
    <Loaded {...props} />
  ) : (
    <span class={controls.spinner} aria-hidden="true" />
  );
}
