/**
 * @module
 * The traveller's consent to the partner's terms, in the form the partner chose (`consent` in the widget's
 * config): a checkbox to tick before buying, with the terms and privacy links under it, or a sentence tied to
 * the buy button ("By buying you accept the terms …", the words linked) that makes pressing it the consent.
 */
import type { Ref } from 'preact';
import { useWidget } from '../flow/widget-context';
import * as controls from '../ui/controls.css';
import * as css from './steps.css';

/** The id of the consent sentence, which the buy button names in `aria-describedby`. */
export const BUY_CONSENT_ID = 'esim-buy-consent';

/** One of the partner's legal pages, opened beside the widget. */
function LegalLink({ href, text }: { href: string; text: string }) {
  return (
    <a class={controls.link} href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  );
}

/** Props of `TermsCheckbox`. */
export interface TermsCheckboxProps {
  accepted: boolean;
  onChange(accepted: boolean): void;
  inputRef: Ref<HTMLInputElement>;
  /** Shown (and the box marked invalid) when the traveller pressed buy without ticking it. */
  problem: boolean;
}

/** The box to tick, its label, and the links to the terms and privacy policy. */
export function TermsCheckbox({ accepted, onChange, inputRef, problem }: TermsCheckboxProps) {
  const { t, config } = useWidget();
  const { termsUrl, privacyUrl } = config.brand;
  return (
    <div class={css.field}>
      <div class={css.checkboxRow}>
        <input
          ref={inputRef}
          id="esim-terms"
          class={css.checkbox}
          type="checkbox"
          checked={accepted}
          aria-invalid={problem ? 'true' : 'false'}
          aria-describedby={problem ? 'esim-terms-error' : undefined}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
        <label for="esim-terms">{t('termsConsent', { brand: config.brand.displayName })}</label>
      </div>
      {(termsUrl || privacyUrl) && (
        <p class={controls.hint}>
          {termsUrl && <LegalLink href={termsUrl} text={t('terms')} />}
          {termsUrl && privacyUrl && ' · '}
          {privacyUrl && <LegalLink href={privacyUrl} text={t('privacy')} />}
        </p>
      )}
      {problem && (
        <p id="esim-terms-error" class={controls.fieldError}>
          {t('termsMissing')}
        </p>
      )}
    </div>
  );
}

/**
 * "By buying you accept the terms and privacy policy of {brand}.": the words `terms` and `privacy policy` link
 * to the partner's pages where it has them. The buy button is described by it (`BUY_CONSENT_ID`).
 */
export function ButtonConsent() {
  const { t, config } = useWidget();
  const pages = {
    terms: { text: t('consentTerms'), href: config.brand.termsUrl },
    privacy: { text: t('consentPrivacy'), href: config.brand.privacyUrl },
  };
  // The message's `{terms}` and `{privacy}` stay in the text for this split: odd parts are their names.
  const parts = t('buyConsent', { brand: config.brand.displayName }).split(/\{(terms|privacy)\}/);
  return (
    <p id={BUY_CONSENT_ID} class={controls.hint}>
      {parts.map((part, index) => {
        if (index % 2 === 0) return part;
        const page = pages[part as keyof typeof pages];
        return page.href ? <LegalLink key={part} href={page.href} text={page.text} /> : page.text;
      })}
    </p>
  );
}
