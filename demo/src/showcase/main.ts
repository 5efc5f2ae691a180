/**
 * @module
 * The showcase page: the widget on a pretend partner site, with switchers for the partner brand, language,
 * theme and checkout mode, the matching embed snippet, the widget's events, and the partner's payment form
 * for `partner_confirm`. The choices live in the URL, so a salesperson can share a configured demo.
 */
import '../brand/base.css';
import './showcase.css';
import { type DemoCheckoutMode, type DemoPartner, demoPartner, MODE_HINTS } from '../partners/demo-partners';
import { embedSnippets } from './embed-snippet';
import { showWidgetEvents } from './event-log';
import { type CheckoutHandOff, partnerPaymentDialog } from './partner-payment';
import { wireCopyButtons, wireTabs } from './snippet-panel';

interface ShowcaseState {
  partner: DemoPartner;
  locale: string;
  theme: 'light' | 'dark';
  mode: DemoCheckoutMode;
}

/**
 * Whether the language switcher offers `locale`. Its options are written at build from the shared locale list
 * (`vite.config.ts`), so the page carries no copy of it (and no zod).
 */
function offersLocale(locale: string): boolean {
  return [...byId<HTMLSelectElement>('locale').options].some((option) => option.value === locale);
}

function readState(): ShowcaseState {
  const query = new URLSearchParams(location.search);
  const locale = query.get('locale') ?? '';
  return {
    partner: demoPartner(query.get('partner')),
    locale: offersLocale(locale) ? locale : 'en',
    theme: query.get('theme') === 'dark' ? 'dark' : 'light',
    mode: query.get('mode') === 'partner_confirm' ? 'partner_confirm' : 'direct',
  };
}

function writeState(state: ShowcaseState): void {
  const query = new URLSearchParams({
    partner: state.partner.key,
    locale: state.locale,
    theme: state.theme,
    mode: state.mode,
  });
  history.replaceState(null, '', `${location.pathname}?${query}`);
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The showcase page has no #${id}.`);
  return found as T;
}

function start(): void {
  let state = readState();
  const form = byId<HTMLFormElement>('controls');
  const site = byId<HTMLElement>('partner-site');
  const slot = byId<HTMLElement>('widget-slot');
  // The partner options and the default mode hint are in the built HTML (see vite.config.ts), so the page does
  // not move when this script runs; it only checks the options the URL asks for.
  byId<HTMLSelectElement>('locale').value = state.locale;
  const chosen: Record<string, string> = { partner: state.partner.key, theme: state.theme, mode: state.mode };
  for (const input of form.querySelectorAll<HTMLInputElement>('input[type=radio]')) {
    input.checked = input.value === chosen[input.name];
  }

  const widget = document.createElement('esim-widget');
  // After a declined card the pretend payment form stays open and takes the next card itself (it says the card
  // was declined): the widget offers no "Try another card" of its own, so the traveller meets one way to pay again.
  widget.setAttribute('payment-retry', 'page');
  slot.append(widget);

  const payment = partnerPaymentDialog(() => ({ partner: state.partner, locale: state.locale }));
  showWidgetEvents(slot, byId('event-log'));
  slot.addEventListener('esim-checkout', (event) => {
    const handOff = (event as CustomEvent<CheckoutHandOff>).detail;
    if (handOff.mode === 'partner_confirm') payment.open(handOff);
  });
  // Cancelled in the widget itself: the checkout is over, so the payment form closes without paying.
  slot.addEventListener('esim-cancel', () => payment.dismiss());

  const render = () => {
    const { partner, locale, theme, mode } = state;
    const widgetId = partner.widgetIds[mode];
    widget.setAttribute('widget-id', widgetId);
    widget.setAttribute('locale', locale);
    widget.setAttribute('theme', theme);
    site.dataset.theme = theme;
    site.style.setProperty('--partner', partner.color);
    byId('partner-name').textContent = partner.name;
    byId('partner-headline').textContent = partner.headline;
    byId('partner-tagline').textContent = partner.tagline;
    byId('partner-address').textContent = `https://${partner.domain}/travel-esim`;
    const logo = byId<HTMLImageElement>('partner-logo');
    logo.src = partner.logoUrl;
    logo.hidden = false;
    byId('mode-hint').textContent = MODE_HINTS[mode];
    const snippets = embedSnippets({ bffOrigin: location.origin, widgetId, locale, theme, mode });
    byId('snippet-script').textContent = snippets.scriptTag;
    byId('snippet-csp').textContent = snippets.csp;
    byId('snippet-install').textContent = snippets.npmInstall;
    byId('snippet-npm').textContent = snippets.npmUsage;
    document.documentElement.lang = locale;
    writeState(state);
  };

  form.addEventListener('change', () => {
    const data = new FormData(form);
    state = {
      partner: demoPartner(String(data.get('partner'))),
      locale: String(data.get('locale')),
      theme: data.get('theme') === 'dark' ? 'dark' : 'light',
      mode: data.get('mode') === 'partner_confirm' ? 'partner_confirm' : 'direct',
    };
    render();
  });
  form.addEventListener('submit', (event) => event.preventDefault());

  wireTabs(document.querySelector<HTMLElement>('[role=tablist]'));
  wireCopyButtons(document, byId('copy-status'));
  render();

  // The widget's script comes from the BFF, exactly as on a partner's site; here the BFF also serves this page.
  import(/* @vite-ignore */ `${location.origin}/widget.js`).catch((cause: unknown) => {
    console.error(new Error('The demo could not load /widget.js from the BFF; is it built?', { cause }));
  });
}

start();
