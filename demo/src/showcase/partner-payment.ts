/**
 * @module
 * The pretend partner checkout: in `partner_confirm` mode the widget's `esim-checkout` event opens the
 * partner's own payment form on the host page. Paying posts the checkout id and a tokenised test card to the
 * partner's server (`demo/partner-server.ts`), which charges and confirms the checkout with the BFF; the widget
 * then sees the order placed. A 3-D Secure card shows the bank's approval first (the confirm follows the
 * provider's webhook); closing the form without paying cancels the checkout.
 */
import type { EsimCheckoutDetail } from '@esim-embed/widget';
import type { DemoPartner } from '../partners/demo-partners';

/** Where the demo partner server's payment route answers, relative to the page. */
export const PARTNER_PAYMENTS_PATH = '/demo-partner/payments';

/** The pretend provider's test cards, as its card field would tokenise them (any other number pays). */
const TEST_CARDS: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '4000000000003220': 'pm_card_three_d_secure',
  '4000000000000002': 'pm_card_declined',
};

/** What the payment form reads of the widget's `esim-checkout` event (`amount` is `{ amountMinor, currency }`). */
export type CheckoutHandOff = Pick<EsimCheckoutDetail, 'checkoutId' | 'mode' | 'amount' | 'email'>;

/** The elements of the payment dialog in `index.html`. */
interface PaymentDialogElements {
  dialog: HTMLDialogElement;
  form: HTMLFormElement;
  merchant: HTMLElement;
  amount: HTMLElement;
  amountButton: HTMLElement;
  what: HTMLElement;
  error: HTMLElement;
  actions: HTMLElement;
  submit: HTMLButtonElement;
  cancel: HTMLButtonElement;
  bank: HTMLElement;
  approve: HTMLButtonElement;
  decline: HTMLButtonElement;
}

/** The partner server's answer: `data` on success, the error envelope otherwise. */
interface PartnerAnswer {
  status: number;
  data?: { outcome?: string; challengeUrl?: string; status?: string };
  error?: { code?: string; params?: { reason?: string } };
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The showcase page has no #${id}; index.html and partner-payment.ts disagree.`);
  return found as T;
}

async function post(path: string, body?: unknown): Promise<PartnerAnswer> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as Omit<PartnerAnswer, 'status'>;
  return { status: response.status, ...json };
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

/** The message for a payment that did not go through. */
function failureText(answer: PartnerAnswer): string {
  switch (answer.error?.code) {
    case 'card_declined':
      return 'The card was declined. Try another card.';
    case 'payment_refunded':
      return `The payment came too late and was refunded (${answer.error.params?.reason ?? 'checkout closed'}).`;
    default:
      return `The payment could not be confirmed (${answer.error?.code ?? `HTTP ${answer.status}`}). Try again.`;
  }
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
    actions: element('pay-actions'),
    submit: element('pay-submit'),
    cancel: element('pay-cancel'),
    bank: element('pay-bank'),
    approve: element('pay-bank-approve'),
    decline: element('pay-bank-decline'),
  };
  let checkout: CheckoutHandOff | null = null;
  let challengeUrl: string | null = null;

  const showBank = (url: string | null) => {
    challengeUrl = url;
    ui.bank.hidden = url === null;
    ui.actions.hidden = url !== null;
  };

  ui.cancel.addEventListener('click', () => ui.dialog.close('cancel'));

  // Closed without paying (Cancel, Escape): the traveller gave up, so the partner cancels the checkout.
  ui.dialog.addEventListener('close', () => {
    const abandoned = checkout;
    checkout = null;
    showBank(null);
    if (abandoned === null || ui.dialog.returnValue === 'paid' || ui.dialog.returnValue === 'dismissed')
      return;
    post(`${PARTNER_PAYMENTS_PATH}/${encodeURIComponent(abandoned.checkoutId)}/cancel`).catch(() => {
      // The checkout then expires at the end of its payment window.
    });
  });

  ui.form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!checkout) return;
    ui.submit.disabled = true;
    ui.error.textContent = '';
    try {
      const card = String(new FormData(ui.form).get('card') ?? '').replace(/\D/g, '');
      const answer = await post(PARTNER_PAYMENTS_PATH, {
        checkoutId: checkout.checkoutId,
        paymentMethod: TEST_CARDS[card] ?? 'pm_card_visa',
      });
      if (answer.data?.outcome === 'requires_action' && answer.data.challengeUrl) {
        showBank(answer.data.challengeUrl);
      } else if (answer.data !== undefined) {
        ui.dialog.close('paid');
      } else {
        ui.error.textContent = failureText(answer);
      }
    } catch (cause) {
      ui.error.textContent = `The payment could not be confirmed (${(cause as Error).message}). Try again.`;
    } finally {
      ui.submit.disabled = false;
    }
  });

  const answerBank = async (approved: boolean) => {
    if (challengeUrl === null) return;
    ui.approve.disabled = ui.decline.disabled = true;
    try {
      const answer = await post(challengeUrl, { approved });
      if (answer.data?.status === 'succeeded') {
        // Paid: the partner confirms when the provider's webhook arrives; the widget waits until then.
        ui.dialog.close('paid');
        return;
      }
      showBank(null);
      ui.error.textContent = 'Your bank declined the payment. Try another card.';
    } catch (cause) {
      ui.error.textContent = `The bank did not answer (${(cause as Error).message}). Try again.`;
    } finally {
      ui.approve.disabled = ui.decline.disabled = false;
    }
  };
  ui.approve.addEventListener('click', () => answerBank(true));
  ui.decline.addEventListener('click', () => answerBank(false));

  return {
    /** Shows the form for a checkout the widget handed over. */
    open(handOff: CheckoutHandOff): void {
      checkout = handOff;
      const { partner, locale } = current();
      const price = formatAmount(handOff.amount.amountMinor, handOff.amount.currency, locale);
      ui.form.style.setProperty('--partner', partner.color);
      ui.merchant.textContent = `${partner.name} · secure checkout`;
      ui.amount.textContent = price;
      ui.amountButton.textContent = price;
      ui.what.textContent = handOff.email ? `Travel eSIM · receipt to ${handOff.email}` : 'Travel eSIM';
      ui.error.textContent = '';
      ui.dialog.returnValue = '';
      showBank(null);
      if (!ui.dialog.open) ui.dialog.showModal();
    },
    /** Closes the form for a checkout that ended elsewhere (cancelled in the widget): nothing left to cancel. */
    dismiss(): void {
      if (ui.dialog.open) ui.dialog.close('dismissed');
    },
  };
}
