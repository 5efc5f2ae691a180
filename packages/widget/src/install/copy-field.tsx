/**
 * @module
 * A value the traveller may need to type on their phone (SM-DP+ address, activation code), shown in full with
 * a copy button that confirms through a live region; and that copy, for other ways of offering a value.
 */
import { useEffect, useState } from 'preact/hooks';
import { useWidget } from '../flow/widget-context';
import * as controls from '../ui/controls.css';
import * as css from './install-step.css';

/** Copies `value` to the clipboard; `copied` is true for 3 s after a copy that worked. */
export function useClipboard(value: string): { copied: boolean; copy(): Promise<void> } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 3000);
    return () => clearTimeout(timer);
  }, [copied]);
  return {
    copied,
    async copy() {
      try {
        await navigator.clipboard.writeText(value);
        setCopied(true);
      } catch {
        // No clipboard permission (an iframe without it, an old browser): the value can be shown and copied by hand.
        setCopied(false);
      }
    },
  };
}

/** Props of `CopyField`. */
export interface CopyFieldProps {
  label: string;
  value: string;
}

/** A labelled value with a copy button. */
export function CopyField({ label, value }: CopyFieldProps) {
  const { t } = useWidget();
  const { copied, copy } = useClipboard(value);

  return (
    <div>
      <span class={controls.label}>{label}</span>
      <div class={css.copyRow}>
        <code class={css.code}>{value}</code>
        <button
          type="button"
          class={controls.button}
          part="button"
          aria-label={t('copyLabel', { what: label })}
          onClick={copy}
        >
          {t('copy')}
        </button>
      </div>
      <p class={controls.visuallyHidden} aria-live="polite">
        {copied ? t('copied', { what: label }) : ''}
      </p>
    </div>
  );
}
