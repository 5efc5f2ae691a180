/**
 * @module
 * The showcase page: the widget on a pretend partner site, with switchers for the partner brand, language,
 * theme and checkout mode, the matching embed snippet, the widget's events, and the partner's payment form
 * for `partner_confirm`. The choices live in the URL, so a salesperson can share a configured demo.
 */
import '../brand/base.css';
import './showcase.css';
import {
  DEMO_PARTNERS,
  type DemoCheckoutMode,
  type DemoPartner,
  demoPartner,
} from '../partners/demo-partners';
import { embedSnippets } from './embed-snippet';
import { showWidgetEvents } from './event-log';
import { type CheckoutHandOff, partnerPaymentDialog } from './partner-payment';
import { wireCopyButtons, wireTabs } from './snippet-panel';

const LOCALES = ['en', 'ru', 'es', 'de', 'fr'] as const;

interface ShowcaseState {
  partner: DemoPartner;
  locale: string;
  theme: 'light' | 'dark';
  mode: DemoCheckoutMode;
}

function readState(): ShowcaseState {
  const query = new URLSearchParams(location.search);
  const locale = query.get('locale') ?? '';
  return {
    partner: demoPartner(query.get('partner')),
    locale: (LOCALES as readonly string[]).includes(locale) ? locale : 'en',
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

function renderPartnerOptions(container: HTMLElement, selected: DemoPartner): void {
  for (const partner of DEMO_PARTNERS) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'partner';
    input.value = partner.key;
    input.checked = partner.key === selected.key;
    const text = document.createElement('span');
    const swatch = document.createElement('i');
    swatch.className = 'swatch';
    swatch.style.setProperty('--swatch', partner.color);
    text.append(swatch, `${partner.name} · ${partner.currency}`);
    label.append(input, text);
    container.append(label);
  }
}

const MODE_HINTS: Record<DemoCheckoutMode, string> = {
  direct: 'Direct: the order is placed from the partner’s prepaid balance when the traveller buys.',
  partner_confirm:
    'Partner payment: buying opens the partner’s own payment form; its server confirms the checkout.',
};

function start(): void {
  let state = readState();
  const form = byId<HTMLFormElement>('controls');
  const site = byId<HTMLElement>('partner-site');
  const slot = byId<HTMLElement>('widget-slot');
  renderPartnerOptions(byId('partner-options'), state.partner);
  byId<HTMLSelectElement>('locale').value = state.locale;
  for (const input of form.querySelectorAll<HTMLInputElement>('input[name=theme], input[name=mode]')) {
    input.checked = input.value === (input.name === 'theme' ? state.theme : state.mode);
  }

  const widget = document.createElement('esim-widget');
  slot.append(widget);

  const payment = partnerPaymentDialog(() => ({ partner: state.partner, locale: state.locale }));
  showWidgetEvents(slot, byId('event-log'));
  slot.addEventListener('esim-checkout', (event) => {
    const handOff = (event as CustomEvent<CheckoutHandOff>).detail;
    if (handOff.mode === 'partner_confirm') payment.open(handOff);
  });

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
