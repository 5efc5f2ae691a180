/**
 * @module
 * The device check shown before the buy button (a lazy chunk, loaded once a plan is chosen): whether this
 * device can take an eSIM (`device-verdict.ts`), in the traveller's language (a small table per language,
 * loaded with it), and how to check when the widget cannot tell. It never blocks the purchase; the host page
 * hears the verdict through `esim-device-check`.
 */
import type { Locale } from '@esim-embed/shared';
import { useEffect, useState } from 'preact/hooks';
import { EsimDeviceCheckEvent } from '../device-check-event';
import { useWidget } from '../flow/widget-context';
import type { DeviceCheckMessages } from '../i18n/messages';
import * as controls from '../ui/controls.css';
import { deviceVerdict, readDeviceSignals, type DeviceCheck as Verdict } from './device-verdict';

const TABLES: Record<Locale, () => Promise<DeviceCheckMessages>> = {
  en: () => import('../i18n/device-check/en').then((table) => table.deviceCheckEn),
  ru: () => import('../i18n/device-check/ru').then((table) => table.deviceCheckRu),
  es: () => import('../i18n/device-check/es').then((table) => table.deviceCheckEs),
  de: () => import('../i18n/device-check/de').then((table) => table.deviceCheckDe),
  fr: () => import('../i18n/device-check/fr').then((table) => table.deviceCheckFr),
};

/** Loads one language's device-check messages. */
export function loadDeviceCheckMessages(locale: Locale): Promise<DeviceCheckMessages> {
  return TABLES[locale]();
}

/** The verdict for this browser, asked once per page: the device does not change between plans. */
let thisDevice: Promise<Verdict> | undefined;
function checkThisDevice(): Promise<Verdict> {
  thisDevice ??= readDeviceSignals().then(deviceVerdict);
  return thisDevice;
}

/** The sentences that say a verdict, and whether they warn. */
export function deviceCheckText(
  check: Verdict,
  messages: DeviceCheckMessages,
): { warning: boolean; sentences: string[] } {
  const phone = (text: string) => text.replace('{phone}', check.name ?? check.model ?? '');
  if (check.verdict === 'incapable') return { warning: true, sentences: [phone(messages.incapable)] };
  const first =
    check.verdict === 'capable'
      ? phone(messages.capable)
      : check.device === 'iphone'
        ? messages.iphone
        : check.device === 'desktop'
          ? messages.checkOnPhone
          : messages.checkPhone;
  return { warning: false, sentences: [first, messages.locked] };
}

/** Whether this device can take an eSIM, or how to check; fires `esim-device-check` once it knows. */
export function DeviceCheck() {
  const { locale, emit } = useWidget();
  const [check, setCheck] = useState<Verdict | null>(null);
  const [messages, setMessages] = useState<DeviceCheckMessages | null>(null);

  useEffect(() => {
    let shown = true;
    checkThisDevice().then((verdict) => {
      if (!shown) return;
      setCheck(verdict);
      emit(
        new EsimDeviceCheckEvent({ verdict: verdict.verdict, device: verdict.device, model: verdict.model }),
      );
    });
    return () => {
      shown = false;
    };
  }, []);

  useEffect(() => {
    let shown = true;
    // A table that fails to load leaves the check unsaid: it is advice, and the purchase goes on without it.
    loadDeviceCheckMessages(locale).then(
      (table) => shown && setMessages(table),
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, [locale]);

  if (!check || !messages) return null;
  const { warning, sentences } = deviceCheckText(check, messages);
  // A warning is one sentence in a notice's box; the rest is quiet advice, a capable phone's with a tick.
  if (warning) {
    return (
      <div class={controls.notice} part="device-check" data-verdict={check.verdict}>
        {sentences[0]}
      </div>
    );
  }
  return (
    <div part="device-check" data-verdict={check.verdict}>
      {sentences.map((sentence, index) => (
        <p key={sentence} class={controls.hint}>
          {index === 0 && check.verdict === 'capable' && <span aria-hidden="true">✓ </span>}
          {sentence}
        </p>
      ))}
    </div>
  );
}
