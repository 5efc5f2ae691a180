/**
 * @module
 * How long something the traveller was promised still holds (a quoted price, the payment window of a
 * checkout), counting down to its `expiresAt`; calls `onExpired` once when it runs out. A `timer` role:
 * screen readers read it on demand, not every second.
 */
import { useEffect, useState } from 'preact/hooks';
import { useWidget } from '../flow/widget-context';
import { formatCountdown } from '../i18n/formatters';
import { secondary } from './steps.css';

/** Props of `DeadlineCountdown`. */
export interface DeadlineCountdownProps {
  expiresAt: string;
  /** The sentence around the remaining time (`{time}`). */
  message: 'priceHeld' | 'paymentWindow';
  onExpired: () => void;
}

/** The countdown to a deadline. */
export function DeadlineCountdown({ expiresAt, message, onExpired }: DeadlineCountdownProps) {
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
  }, [remaining, onExpired]);

  return (
    // `timer` is read on demand; `aria-live="off"` keeps it so inside the step's polite region.
    <p class={secondary} role="timer" aria-live="off">
      {t(message, { time: formatCountdown(remaining) })}
    </p>
  );
}
