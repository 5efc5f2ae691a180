/**
 * The page's own script: it shows what the `esim-purchase` event says. The widget itself comes from the BFF's
 * script tag in `index.html`; the type import only types the element and its events.
 */
import type {} from '@esim-embed/widget';

const status = document.querySelector('#purchase');

document.querySelector('esim-widget')?.addEventListener('esim-purchase', (event) => {
  const { checkoutId, amount } = event.detail;
  const formatted = new Intl.NumberFormat('en', { style: 'currency', currency: amount.currency });
  if (status)
    status.textContent = `Thank you! Order ${checkoutId}, ${formatted.format(amount.amountMinor / 100)}.`;
});
