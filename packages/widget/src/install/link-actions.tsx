/**
 * @module
 * A link the traveller keeps (the manage link) offered as actions rather than as a block of text: copy it,
 * share it through the phone's share sheet where the browser has the Web Share API, or show the address on
 * request.
 */
import { useState } from 'preact/hooks';
import { useWidget } from '../flow/widget-context';
import * as controls from '../ui/controls.css';
import { useClipboard } from './copy-field';
import * as css from './install-step.css';

/** Props of `LinkActions`. */
export interface LinkActionsProps {
  url: string;
}

/** Copy, share (where the browser can) and show-on-request for the manage link. */
export function LinkActions({ url }: LinkActionsProps) {
  const { t, config } = useWidget();
  const { copied, copy } = useClipboard(url);
  const [shown, setShown] = useState(false);
  const label = t('manageLinkLabel');
  const canShare = typeof navigator.share === 'function' && (navigator.canShare?.({ url }) ?? true);

  async function share() {
    try {
      await navigator.share({ title: config.brand.displayName, url });
    } catch {
      // The traveller closed the share sheet, or the page may not share: copying is still there.
    }
  }

  return (
    <div>
      <span class={controls.label}>{label}</span>
      <div class={controls.actions}>
        <button type="button" class={controls.button} part="button" onClick={copy}>
          {t('manageLinkCopy')}
        </button>
        {canShare && (
          <button type="button" class={controls.button} part="button" onClick={share}>
            {t('manageLinkShare')}
          </button>
        )}
        <button
          type="button"
          class={controls.linkButton}
          part="button"
          aria-expanded={shown}
          aria-controls="esim-manage-link-url"
          onClick={() => setShown(!shown)}
        >
          {t('manageLinkShow')}
        </button>
      </div>
      {shown && (
        <code id="esim-manage-link-url" class={css.shownLink}>
          {url}
        </code>
      )}
      <p class={controls.visuallyHidden} aria-live="polite">
        {copied ? t('copied', { what: label }) : ''}
      </p>
    </div>
  );
}
