/** @module A checkout's status as a small tag in the staff member's words. */
import type { CheckoutStatus } from '@esim-embed/shared';
import { useConsole } from '../app/console-context';
import * as controls from '../ui/controls.css';

/** The tag. */
export function StatusTag({ status }: { status: CheckoutStatus }) {
  const { t } = useConsole();
  return <span class={controls.tag}>{t(`status_${status}`)}</span>;
}
