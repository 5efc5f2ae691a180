/**
 * @module
 * The widget's frame and flow: starts the widget (its public config; the session waits for the quote), picks the
 * language, applies the brand, resumes a checkout in progress (or a create not settled before a reload), and
 * shows one step at a time between the brand header and the support footer.
 *
 * Over 300 lines: the shell's state and step flow read best whole; the small parts below serve only it.
 */
import type { Locale, WidgetPublicConfig } from '@esim-embed/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiClient } from '../api/api-client';
import { errorCodeOf, WidgetApiError } from '../api/api-error';
import type { EarlyStart } from '../api/early-start';
import { EsimErrorEvent, type EsimPaymentRetry, EsimReadyEvent } from '../events';
import { pendingPurchase, recalledCheckout, type Step } from '../flow/flow-steps';
import { WidgetContext, type WidgetContextValue } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';
import type { LazyTables, Messages } from '../i18n/messages';
import {
  chooseLocale,
  createTranslator,
  loadLazyMessages,
  loadMessages,
  pageLanguages,
} from '../i18n/translator';
import { takeFollowedManageToken, takeManageToken } from '../install/manage-link-address';
import * as controls from '../ui/controls.css';
import { useRetryByItself } from '../ui/retry-by-itself';
import { supportHref } from '../ui/support-href';
import { brandCss } from './brand-sheet';
import { CurrentStep } from './current-step';
import * as css from './widget-shell.css';

/** What the element passes to the app; changes are applied with `update`. */
export interface WidgetAppOptions {
  widgetId: string;
  apiBase: string;
  /** The `locale` attribute, or null to follow the page and the browser. */
  locale: string | null;
  /** The `country` attribute, or null for the destination search. */
  country: string | null;
  /** The `payment-retry` attribute: who offers the next payment attempt after a decline. */
  paymentRetry: EsimPaymentRetry;
}

/** Props of `WidgetShell`. */
export interface WidgetShellProps {
  host: HTMLElement;
  options: WidgetAppOptions;
  /** The shadow root's brand stylesheet, rewritten when the widget's brand arrives. */
  brandSheet: CSSStyleSheet;
  /** The start the element sent as it connected, read by this shell's client if it asks for the same. */
  earlyStart?: EarlyStart | null;
}

function initialStep(widgetId: string, apiBase: string, country: string | null): Step {
  const handle = recalledCheckout(widgetId);
  // A create sent before a reload and not settled: settled first, before the traveller can buy again.
  const pending = pendingPurchase(widgetId, apiBase);
  // A manage link the traveller followed in this tab (taken out of the address once read).
  const manageToken = takeManageToken(widgetId);
  if (pending) return { name: 'checkout', ...pending, resume: true };
  // A manage link opens the eSIM's view, unless a top-up of that same eSIM is under way in this tab.
  if (manageToken && handle?.topUp?.manageToken !== manageToken) return { name: 'my-esim', manageToken };
  if (handle) return { name: 'progress', handle, resumed: true };
  const code = country?.trim().toUpperCase();
  if (code && /^[A-Z0-9]{2}$/.test(code))
    return { name: 'plans', destination: { code, name: code, flag: '' } };
  return { name: 'destinations' };
}

/** The widget app for one widget id on one BFF. */
export function WidgetShell({ host, options, brandSheet, earlyStart = null }: WidgetShellProps) {
  const { apiBase, widgetId, country } = options;
  // The shell is keyed by the BFF and the widget id (`widget-app.tsx`): one client for its whole life.
  const client = useMemo(
    () => new ApiClient({ apiBase, widgetId, ...(earlyStart && { fetch: earlyStart.fetch }) }),
    [apiBase, widgetId, earlyStart],
  );
  useEffect(() => () => client.close(), [client]);
  // A manage token leaves the address bar at once, before the start answers, for the host page's scripts.
  useEffect(() => void takeManageToken(widgetId), [widgetId]);

  const [config, setConfig] = useState<WidgetPublicConfig | null>(null);
  const [step, setStep] = useState<Step | null>(null);
  const [focusSteps, setFocusSteps] = useState(false);
  const [table, setTable] = useState<{
    locale: string;
    messages: Messages;
    lazy: Partial<LazyTables>;
  } | null>(null);
  // Once a lazy step has loaded a table, a change of language loads that table too.
  const lazyUsed = useRef(new Set<keyof LazyTables>());

  const candidates = [options.locale, ...pageLanguages(host)];
  const locale = config
    ? chooseLocale(candidates, config.locales, config.defaultLocale)
    : chooseLocale(candidates);

  useEffect(() => {
    let current = true;
    const used = [...lazyUsed.current];
    Promise.all([
      loadMessages(locale),
      Promise.all(used.map(async (name) => [name, await loadLazyMessages(name, locale)] as const)),
    ]).then(
      ([messages, lazy]) =>
        current && setTable({ locale, messages, lazy: Object.fromEntries(lazy) as Partial<LazyTables> }),
    );
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

  const started = useWriteAction(
    async () => {
      const { widget } = await client.start();
      // The first step's catalog read goes out now, beside the messages and the step's code, not after them.
      const first = initialStep(widgetId, client.apiBase, country);
      const firstLocale = chooseLocale(candidates, widget.locales, widget.defaultLocale);
      if (first.name === 'destinations') client.prefetchDestinations(firstLocale);
      if (first.name === 'plans') client.prefetchPlans(first.destination.code, firstLocale);
      setConfig(widget);
      brandSheet.replaceSync(brandCss(widget.brand));
    },
    { widget: { client, report } },
  );
  const start = started.run;
  useEffect(() => void start(), []);

  // The first step once the widget has started; later, a `country` set at run time opens that destination,
  // unless a purchase is under way.
  const hasStarted = Boolean(config);
  useEffect(() => {
    if (!hasStarted) return;
    setStep((current) =>
      !current || current.name === 'destinations' || current.name === 'plans'
        ? initialStep(widgetId, client.apiBase, country)
        : current,
    );
  }, [hasStarted, widgetId, client, country]);

  // A manage link followed on the same page (a single-page app, or a link in the host page) opens the view.
  useEffect(() => {
    if (!hasStarted) return;
    const opened = () => {
      // Only a manage link just followed: the host page's own fragment changes are not the widget's.
      const manageToken = takeFollowedManageToken(widgetId);
      if (manageToken) {
        setFocusSteps(true);
        setStep({ name: 'my-esim', manageToken });
      }
    };
    globalThis.addEventListener?.('hashchange', opened);
    return () => globalThis.removeEventListener?.('hashchange', opened);
  }, [hasStarted, widgetId]);

  // `esim-ready` once, when the first screen shows (not again when the language changes).
  const announcedReady = useRef(false);
  useEffect(() => {
    if (!config || !table || !step || announcedReady.current) return;
    announcedReady.current = true;
    host.dispatchEvent(
      new EsimReadyEvent({
        widgetId: config.widgetId,
        locale,
        environment: config.environment,
        checkoutMode: config.checkoutMode,
      }),
    );
  }, [config, table, step, locale, host]);

  // The context's functions keep their identity (biome.json lists them as stable results of `useWidget`), so
  // that a step's effects and callbacks can depend on them without running again.
  const provideTables = useCallback((forLocale: Locale, tables: Partial<LazyTables>) => {
    for (const name of Object.keys(tables) as (keyof LazyTables)[]) lazyUsed.current.add(name);
    setTable((current) =>
      current && current.locale === forLocale
        ? { ...current, lazy: { ...current.lazy, ...tables } }
        : current,
    );
  }, []);
  const go = useCallback((next: Step) => {
    setFocusSteps(true);
    setStep(next);
  }, []);
  const emit = useCallback((event: Event) => host.dispatchEvent(event), [host]);

  const context = useMemo<WidgetContextValue | null>(() => {
    if (!config || !table) return null;
    return {
      client,
      config,
      locale,
      t: createTranslator(locale, { ...table.messages, ...table.lazy.purchase, ...table.lazy.afterSale }),
      tablesReady: new Set(table.locale === locale ? (Object.keys(table.lazy) as (keyof LazyTables)[]) : []),
      provideTables,
      paymentRetry: options.paymentRetry,
      focusSteps,
      go,
      emit,
      report,
    };
  }, [client, config, table, locale, options.paymentRetry, focusSteps, provideTables, go, emit, report]);

  if (!table) return <div class={css.container} part="container" aria-busy="true" />;
  const t = createTranslator(table.locale === locale ? locale : 'en', table.messages);

  if (!context || !step) {
    return (
      <div class={css.container} part="container" lang={locale}>
        <div class={css.content} part="content" aria-live="polite">
          {started.error !== null ? (
            <StartFailure error={started.error} failures={started.failures} retry={start} t={t} />
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
  const support = supportHref(brand);
  return (
    <WidgetContext.Provider value={context}>
      <div class={css.container} part="container" lang={locale}>
        <div class={css.header} part="header">
          <BrandMark name={brand.displayName} logoUrl={brand.logoUrl} />
          {context.config.environment === 'test' && (
            <span class={css.badge}>
              {t('testMode')}
              <span class={controls.visuallyHidden}>{t('testModeHint')}</span>
            </span>
          )}
        </div>
        <div class={css.content} part="content">
          <CurrentStep step={step} />
        </div>
        <div class={css.footer} part="footer">
          <span>{t('soldBy', { brand: brand.displayName })}</span>
          {support && <FooterLink href={support} text={t('support')} />}
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
  if (!logoUrl || broken) return <span class={css.brandName}>{name}</span>;
  return <img class={css.logo} part="logo" src={logoUrl} alt={name} onError={() => setBroken(true)} />;
}

function FooterLink({ href, text }: { href: string; text: string }) {
  return (
    <a class={controls.link} href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  );
}

/** Before the widget has started there is no brand: a plain message and a retry (also by itself, as the notice's). */
function StartFailure({
  error,
  failures,
  retry,
  t,
}: {
  error: unknown;
  failures: number;
  retry: () => void;
  t: ReturnType<typeof createTranslator>;
}) {
  const code = errorCodeOf(error);
  const unavailableHere = [
    'widget_origin_forbidden',
    'storefront_app_not_found',
    'storefront_app_disabled',
  ].includes(code);
  // Only the shop's operator can fix its upstream key: a retry would fail the same way.
  const misconfigured = code === 'widget_misconfigured';
  const offered = !unavailableHere && !misconfigured;
  // The start is a read: safe to repeat by itself.
  const pause = useRetryByItself(error, offered ? retry : undefined, failures);
  return (
    <div class={controls.notice} role="alert" part="error" data-code={code}>
      <p>
        {t(
          unavailableHere
            ? 'errorStoreClosed'
            : misconfigured
              ? 'errorMisconfigured'
              : code === 'network_error'
                ? 'errorNetwork'
                : 'errorUnavailable',
        )}
      </p>
      {pause !== null && <p class={controls.hint}>{t('retryingIn', { n: pause / 1000 })}</p>}
      {offered && (
        <button type="button" class={controls.primaryButton} part="button primary-button" onClick={retry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}
