/**
 * @module
 * How long the quoted price is still held, counting down to the quote's `expiresAt`; calls `onExpired`
 * once when it runs out. A `timer` role: screen readers read it on demand, not every second.
 */
import { useEffect, useState } from 'preact/hooks';
import { useWidget } from '../app/widget-context';
import { formatCountdown } from '../i18n/formatters';
import { secondary } from './steps.css';

/** Props of `QuoteCountdown`. */
export interface QuoteCountdownProps {
  expiresAt: string;
  onExpired: () => void;
}

/** The countdown of a held price. */
export function QuoteCountdown({ expiresAt, onExpired }: QuoteCountdownProps) {
  const { t } = useWidget();
  const deadline = Date.parse(expiresAt);
  const [now, setNow] = useState(() => Date.now());
  const remaining = deadline - now;

  useEffect(() => {
    if (remaining <= 0) {
      onExpired();
      return;
    }
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, remaining));
    return () => clearTimeout(timer);
  }, [now, deadline]);

  return (
    // `timer` is read on demand; `aria-live="off"` keeps it so inside the step's polite region.
    <p class={secondary} role="timer" aria-live="off">
      {t('priceHeld', { time: formatCountdown(remaining) })}
    </p>
  );
}
