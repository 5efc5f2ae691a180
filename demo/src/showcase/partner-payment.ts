/**
 * @module
 * The pretend partner checkout: in `partner_confirm` mode the widget's `esim-checkout` event opens the
 * partner's own payment form on the host page. Paying posts the checkout id to the partner's server
 * (`demo/partner-server.ts`), which confirms the checkout with the BFF; the widget then sees the order placed.
 */
import type { DemoPartner } from '../partners/demo-partners';

/** Where the demo partner server's payment route answers, relative to the page. */
export const PARTNER_PAYMENTS_PATH = '/demo-partner/payments';

/** What the widget's `esim-checkout` event tells the host page. */
export interface CheckoutHandOff {
  checkoutId: string;
  mode: 'partner_confirm' | 'direct';
  amount: number;
  currency: 'RUB' | 'USD';
  email: string | null;
}

/** The elements of the payment dialog in `index.html`. */
interface PaymentDialogElements {
  dialog: HTMLDialogElement;
  form: HTMLFormElement;
  merchant: HTMLElement;
  amount: HTMLElement;
  amountButton: HTMLElement;
  what: HTMLElement;
  error: HTMLElement;
  submit: HTMLButtonElement;
  cancel: HTMLButtonElement;
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The showcase page has no #${id}; index.html and partner-payment.ts disagree.`);
  return found as T;
}

/** Formats minor units the way the partner's own page would. */
export function formatAmount(amountMinor: number, currency: string, locale: string): string {
  const digits = currency === 'RUB' && amountMinor % 100 === 0 ? 0 : 2;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amountMinor / 100);
}

/**
 * Wires the payment dialog. `open` shows it for a checkout; paying calls the partner server, which confirms
 * the checkout with the BFF.
 */
export function partnerPaymentDialog(current: () => { partner: DemoPartner; locale: string }) {
  const ui: PaymentDialogElements = {
    dialog: element('pay-dialog'),
    form: element('pay-form'),
    merchant: element('pay-merchant'),
    amount: element('pay-amount'),
    amountButton: element('pay-amount-button'),
    what: element('pay-what'),
    error: element('pay-error'),
    submit: element('pay-submit'),
    cancel: element('pay-cancel'),
  };
  let checkout: CheckoutHandOff | null = null;

  ui.cancel.addEventListener('click', () => ui.dialog.close('cancel'));

  ui.form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!checkout) return;
    ui.submit.disabled = true;
    ui.error.textContent = '';
    try {
      const response = await fetch(PARTNER_PAYMENTS_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ checkoutId: checkout.checkoutId }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
        throw new Error(body?.error?.code ?? `HTTP ${response.status}`);
      }
      ui.dialog.close('paid');
    } catch (cause) {
      ui.error.textContent = `The payment could not be confirmed (${(cause as Error).message}). Try again.`;
    } finally {
      ui.submit.disabled = false;
    }
  });

  return {
    /** Shows the form for a checkout the widget handed over. */
    open(handOff: CheckoutHandOff): void {
      checkout = handOff;
      const { partner, locale } = current();
      const price = formatAmount(handOff.amount, handOff.currency, locale);
      ui.form.style.setProperty('--partner', partner.color);
      ui.merchant.textContent = `${partner.name} · secure checkout`;
      ui.amount.textContent = price;
      ui.amountButton.textContent = price;
      ui.what.textContent = handOff.email ? `Travel eSIM · receipt to ${handOff.email}` : 'Travel eSIM';
      ui.error.textContent = '';
      if (!ui.dialog.open) ui.dialog.showModal();
    },
  };
}
