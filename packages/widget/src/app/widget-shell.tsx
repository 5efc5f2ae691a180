/**
 * @module
 * The widget's frame and flow: opens the session, picks the language, applies the brand, resumes a
 * checkout in progress, and shows one step at a time between the brand header and the support footer.
 */
import type { WidgetPublicConfig } from '@esim-embed/shared';
import type { ComponentType } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiClient } from '../api/api-client';
import { errorCodeOf, WidgetApiError } from '../api/api-error';
import { EsimErrorEvent, EsimReadyEvent } from '../element/events';
import type { Messages } from '../i18n/messages';
import { chooseLocale, createTranslator, loadMessages, pageLanguages } from '../i18n/translator';
import type { InstallStepProps } from '../install/install-step';
import { CheckoutStep } from '../steps/checkout-step';
import { DestinationsStep } from '../steps/destinations-step';
import { PlansStep } from '../steps/plans-step';
import { ProgressStep } from '../steps/progress-step';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { brandCss } from './brand-sheet';
import { recalledCheckout, type Step } from './flow-steps';
import type { WidgetAppOptions } from './widget-app';
import { WidgetContext, type WidgetContextValue } from './widget-context';
import * as css from './widget-shell.css';

/** Props of `WidgetShell`. */
export interface WidgetShellProps {
  host: HTMLElement;
  options: WidgetAppOptions;
  /** The shadow root's brand stylesheet, rewritten when the session's brand arrives. */
  brandSheet: CSSStyleSheet;
}

function initialStep(widgetId: string, country: string | null): Step {
  const handle = recalledCheckout(widgetId);
  if (handle) return { name: 'progress', handle };
  const code = country?.trim().toUpperCase();
  if (code && /^[A-Z0-9]{2}$/.test(code))
    return { name: 'plans', destination: { code, name: code, flag: '' } };
  return { name: 'destinations' };
}

/** The widget app for one widget id on one BFF. */
export function WidgetShell({ host, options, brandSheet }: WidgetShellProps) {
  const client = useMemo(() => new ApiClient({ apiBase: options.apiBase, widgetId: options.widgetId }), []);
  useEffect(() => () => client.close(), [client]);

  const [config, setConfig] = useState<WidgetPublicConfig | null>(null);
  const [sessionError, setSessionError] = useState<unknown>(null);
  const [step, setStep] = useState<Step | null>(null);
  const [focusSteps, setFocusSteps] = useState(false);
  const [table, setTable] = useState<{ locale: string; messages: Messages } | null>(null);

  const candidates = [options.locale, ...pageLanguages(host)];
  const locale = config
    ? chooseLocale(candidates, config.locales, config.defaultLocale)
    : chooseLocale(candidates);

  useEffect(() => {
    let current = true;
    loadMessages(locale).then((messages) => current && setTable({ locale, messages }));
    return () => {
      current = false;
    };
  }, [locale]);

  const report = useCallback(
    (error: unknown) => {
      if (client.closed) return;
      const requestId = error instanceof WidgetApiError ? error.requestId : null;
      host.dispatchEvent(new EsimErrorEvent({ code: errorCodeOf(error), requestId }));
    },
    [client, host],
  );

  const openSession = useCallback(() => {
    setSessionError(null);
    client.session().then(
      (session) => {
        setConfig(session.widget);
        brandSheet.replaceSync(brandCss(session.widget.brand));
        setStep((current) => current ?? initialStep(options.widgetId, options.country));
      },
      (error: unknown) => {
        if (client.closed) return;
        setSessionError(error);
        report(error);
      },
    );
  }, [client]);
  useEffect(openSession, [openSession]);

  // A `country` set at run time opens that destination, unless a purchase is under way.
  useEffect(() => {
    setStep((current) =>
      current && (current.name === 'destinations' || current.name === 'plans')
        ? initialStep(options.widgetId, options.country)
        : current,
    );
  }, [options.country]);

  const ready = Boolean(config && table && step);
  useEffect(() => {
    if (!ready || !config) return;
    host.dispatchEvent(
      new EsimReadyEvent({
        widgetId: config.widgetId,
        locale,
        environment: config.environment,
        checkoutMode: config.checkoutMode,
      }),
    );
  }, [ready]);

  const context = useMemo<WidgetContextValue | null>(() => {
    if (!config || !table) return null;
    return {
      client,
      config,
      locale,
      t: createTranslator(locale, table.messages),
      focusSteps,
      go(next) {
        setFocusSteps(true);
        setStep(next);
      },
      emit: (event) => host.dispatchEvent(event),
      report,
    };
  }, [client, config, table, locale, focusSteps, report]);

  if (!table) return <div class={css.container} part="container" aria-busy="true" />;
  const t = createTranslator(table.locale === locale ? locale : 'en', table.messages);

  if (!context || !step) {
    return (
      <div class={css.container} part="container" lang={locale}>
        <div class={css.content} part="content" aria-live="polite">
          {sessionError ? (
            <SessionFailure error={sessionError} retry={openSession} t={t} />
          ) : (
            <p aria-busy="true">
              <span class={controls.spinner} aria-hidden="true" />
              {t('loading')}
            </p>
          )}
        </div>
      </div>
    );
  }

  const brand = context.config.brand;
  return (
    <WidgetContext.Provider value={context}>
      <div class={css.container} part="container" lang={locale}>
        <div class={css.header} part="header">
          <BrandMark name={brand.displayName} logoUrl={brand.logoUrl} />
          {context.config.environment === 'test' && <span class={css.badge}>{t('testMode')}</span>}
        </div>
        <div class={css.content} part="content">
          <CurrentStep step={step} />
        </div>
        <div class={css.footer} part="footer">
          <span>{t('soldBy', { brand: brand.displayName })}</span>
          {brand.supportUrl && <FooterLink href={brand.supportUrl} text={t('support')} />}
          {!brand.supportUrl && brand.supportEmail && (
            <FooterLink href={`mailto:${brand.supportEmail}`} text={t('support')} />
          )}
          {brand.termsUrl && <FooterLink href={brand.termsUrl} text={t('terms')} />}
          {brand.privacyUrl && <FooterLink href={brand.privacyUrl} text={t('privacy')} />}
        </div>
      </div>
    </WidgetContext.Provider>
  );
}

/** The partner's logo, or its name when there is no logo or the logo does not load. */
function BrandMark({ name, logoUrl }: { name: string; logoUrl: string | null }) {
  const [broken, setBroken] = useState(false);
  if (!logoUrl || broken) return <span>{name}</span>;
  return <img class={css.logo} part="logo" src={logoUrl} alt={name} onError={() => setBroken(true)} />;
}

function FooterLink({ href, text }: { href: string; text: string }) {
  return (
    <a class={controls.link} href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  );
}

/** Before there is a session there is no brand: a plain message and a retry. */
function SessionFailure({
  error,
  retry,
  t,
}: {
  error: unknown;
  retry: () => void;
  t: ReturnType<typeof createTranslator>;
}) {
  const code = errorCodeOf(error);
  const unavailableHere = [
    'widget_origin_forbidden',
    'storefront_app_not_found',
    'storefront_app_disabled',
  ].includes(code);
  return (
    <div class={controls.notice} role="alert" part="error" data-code={code}>
      <p>
        {t(
          unavailableHere
            ? 'errorStoreClosed'
            : code === 'network_error'
              ? 'errorNetwork'
              : 'errorUnavailable',
        )}
      </p>
      {!unavailableHere && (
        <button type="button" class={controls.primaryButton} part="button primary-button" onClick={retry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}

function CurrentStep({ step }: { step: Step }) {
  switch (step.name) {
    case 'destinations':
      return <DestinationsStep />;
    case 'plans':
      return <PlansStep destination={step.destination} />;
    case 'checkout':
      return <CheckoutStep plan={step.plan} destination={step.destination} />;
    case 'progress':
      return <ProgressStep handle={step.handle} />;
    case 'install':
      return (
        <LazyInstallStep handle={step.handle} checkout={step.checkout} installation={step.installation} />
      );
  }
}

/** The install step and its QR encoder load only when a purchase is ready. */
function LazyInstallStep(props: InstallStepProps) {
  const [Install, setInstall] = useState<ComponentType<InstallStepProps> | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const load = useCallback(() => {
    setFailed(null);
    import('../install/install-step').then(
      (module) => setInstall(() => module.InstallStep),
      (error: unknown) => setFailed(new WidgetApiError('network_error', {}, null, { cause: error })),
    );
  }, []);
  useEffect(load, [load]);
  if (failed) return <ErrorNotice error={failed} actions={{ retry: load }} />;
  return Install ? <Install {...props} /> : <span class={controls.spinner} aria-hidden="true" />;
}
