/**
 * @module
 * The embed snippets a partner copies: the script tag with the current options, the Content-Security-Policy
 * their page needs for it, and the npm equivalent. Pure: the showcase renders what this returns.
 */
import type { DemoCheckoutMode } from '../partners/demo-partners';

/** What the partner chose in the showcase. */
export interface EmbedOptions {
  /** The BFF's origin (where `widget.js` and the API live). */
  bffOrigin: string;
  widgetId: string;
  locale: string;
  theme: 'light' | 'dark';
  mode: DemoCheckoutMode;
}

/** The four snippets of the embed panel. */
export interface EmbedSnippets {
  scriptTag: string;
  csp: string;
  npmInstall: string;
  npmUsage: string;
}

const CHECKOUT_LISTENER = `
widget.addEventListener('esim-checkout', (event) => {
  // Take the payment your way, then confirm the checkout from your server:
  // POST /v1/partner/checkouts/{checkoutId}/confirm with your partner secret.
  openYourPaymentForm(event.detail); // { checkoutId, amount: { amountMinor, currency }, email }
});`;

/** Builds the snippets for the current options. */
export function embedSnippets(options: EmbedOptions): EmbedSnippets {
  const { bffOrigin, widgetId, locale, theme, mode } = options;
  const attributes = `widget-id="${widgetId}" locale="${locale}" theme="${theme}"`;
  const confirmsPayment = mode === 'partner_confirm';

  const scriptTag = [
    `<script type="module" src="${bffOrigin}/widget.js"></script>`,
    `<esim-widget ${attributes}></esim-widget>`,
    ...(confirmsPayment
      ? [
          // A file of the partner's own, not an inline script: the strict CSP below allows no inline script.
          '<script type="module" src="/js/esim-checkout.js"></script>',
          '',
          '<!-- /js/esim-checkout.js -->',
          `const widget = document.querySelector('esim-widget');${CHECKOUT_LISTENER}`,
        ]
      : []),
  ].join('\n');

  // The policy the widget's README documents (and the e2e suite enforces): only the BFF's origin, no inline
  // anything, Trusted Types on. The logo's host joins img-src when the brand has one elsewhere.
  const csp = [
    `script-src ${bffOrigin};`,
    `connect-src ${bffOrigin};`,
    `img-src ${bffOrigin};`,
    "require-trusted-types-for 'script';",
  ].join('\n');

  // React's component: it works in React 18 too, which sets a custom element's props as attributes and never
  // listens to its events. The other frameworks' recipes are in the widget's README.
  const npmUsage = [
    "import { defineEsimWidget } from '@esim-embed/widget';",
    "import { EsimWidget } from '@esim-embed/widget/react';",
    '',
    'defineEsimWidget();',
    '',
    '// React 18 and 19. React 19 and Preact also take <esim-widget> itself with these props;',
    '// Vue, Angular and plain HTML: see the recipes in the widget’s README.',
    `<EsimWidget ${attributes}`,
    `  api-base="${bffOrigin}"${confirmsPayment ? '\n  onesim-checkout={(event) => openYourPaymentForm(event.detail)}' : ''} />`,
  ].join('\n');

  return { scriptTag, csp, npmInstall: 'npm install @esim-embed/widget', npmUsage };
}
