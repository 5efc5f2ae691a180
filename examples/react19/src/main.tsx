/**
 * React 19 with `<esim-widget>` itself: React 19 sets a custom element's props and binds `on` + event-name props
 * as listeners, and `@esim-embed/widget/react` types them. The page shows what the `esim-purchase` event says.
 */
import '@esim-embed/widget/define';
import type { EsimMoney, EsimPurchaseDetail } from '@esim-embed/widget';
import type {} from '@esim-embed/widget/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

// Your widget id and your BFF; `?widget=…&api=…` overrides them (the browser tests point them at their stack).
const query = new URLSearchParams(location.search);
const widgetId = query.get('widget') ?? 'demo-globetrotter';
const apiBase = query.get('api') ?? 'http://localhost:8787';

const price = ({ amountMinor, currency }: EsimMoney) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(amountMinor / 100);

function Store() {
  const [purchase, setPurchase] = useState<EsimPurchaseDetail | null>(null);
  return (
    <main>
      <h1>Travel eSIM (React 19)</h1>
      <esim-widget
        widget-id={widgetId}
        api-base={apiBase}
        onesim-purchase={(event) => setPurchase(event.detail)}
      />
      <p id="purchase" role="status">
        {purchase
          ? `Thank you! Order ${purchase.checkoutId}, ${price(purchase.amount)}.`
          : 'No purchase yet.'}
      </p>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Store />
  </StrictMode>,
);
