/**
 * @module
 * Whether this device can take an eSIM, when the browser lets the widget know: an Android Chromium names its
 * model in User-Agent Client Hints, looked up in `esim-devices.ts`; an iPhone cannot be told apart by model
 * (iOS's user agent names none), nor can other phones; a computer is not the device the eSIM goes on. Pure
 * but for {@link readDeviceSignals}, which asks the browser.
 */
import type { EsimDeviceCheckDetail } from '../device-check-event';
import { type DeviceModel, ESIM_CAPABLE, ESIM_INCAPABLE } from './esim-devices';

/** What the browser says about the device. */
export interface DeviceSignals {
  userAgent: string;
  /** Client Hints' `platform` (`Android`, `Windows`, `macOS` …), when the browser has them. */
  platform?: string;
  /** Client Hints' `mobile`. */
  mobile?: boolean;
  /** Client Hints' `model` (Android only; empty elsewhere). */
  model?: string;
  /** `navigator.maxTouchPoints`: an iPad's Safari says "Macintosh" but has touch points. */
  maxTouchPoints?: number;
}

/** The device check's answer: what the page hears (`esim-device-check`), and the phone's name. */
export interface DeviceCheck extends EsimDeviceCheckDetail {
  /** What to call the phone (`Galaxy S23`, `Pixel 8`), when the model is on a list. */
  name: string | null;
}

/** The entry of a list the model matches. */
function lookUp(list: readonly DeviceModel[], model: string): DeviceModel | undefined {
  return list.find((entry) => entry.pattern.test(model));
}

/**
 * The model an Android user agent names (`Android 13; SM-S918B Build/…`; Samsung Internet's `SAMSUNG SM-S918B`),
 * before Chromium reduced it to `K`, when Client Hints do not say.
 */
function userAgentModel(userAgent: string): string {
  const named = /Android [^;)]*; ([^;)]+?)(?: Build\/[^;)]*)?\)/.exec(userAgent)?.[1]?.trim() ?? '';
  return named === 'K' ? '' : named.replace(/^SAMSUNG /i, '');
}

/** The verdict for what the browser said. */
export function deviceVerdict(signals: DeviceSignals): DeviceCheck {
  const { userAgent } = signals;
  if (/iPhone/.test(userAgent)) return { verdict: 'unknown', device: 'iphone', model: null, name: null };
  const android = signals.platform === 'Android' || /Android/.test(userAgent);
  if (android) {
    const model = (signals.model || userAgentModel(userAgent)).trim();
    for (const [list, verdict] of [
      [ESIM_CAPABLE, 'capable'],
      [ESIM_INCAPABLE, 'incapable'],
    ] as const) {
      const entry = model ? lookUp(list, model) : undefined;
      if (entry) return { verdict, device: 'android', model, name: entry.name ?? model };
    }
    return { verdict: 'unknown', device: 'android', model: model || null, name: null };
  }
  const tablet = /iPad/.test(userAgent) || (/Macintosh/.test(userAgent) && (signals.maxTouchPoints ?? 0) > 1);
  const mobile = signals.mobile ?? /Mobi/.test(userAgent);
  const device = tablet || mobile ? 'other' : 'desktop';
  return { verdict: 'unknown', device, model: null, name: null };
}

/** Client Hints as Chromium exposes them (not in TypeScript's DOM types). */
interface UserAgentData {
  mobile: boolean;
  platform: string;
  getHighEntropyValues(hints: string[]): Promise<{ model?: string; platform?: string; mobile?: boolean }>;
}

/** Reads what the browser says about the device: its user agent, and Client Hints where it has them. */
export async function readDeviceSignals(browser: Navigator = navigator): Promise<DeviceSignals> {
  const signals: DeviceSignals = {
    userAgent: browser.userAgent,
    maxTouchPoints: browser.maxTouchPoints,
  };
  const hints = (browser as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (!hints) return signals;
  signals.platform = hints.platform;
  signals.mobile = hints.mobile;
  try {
    const high = await hints.getHighEntropyValues(['model', 'platform']);
    if (high.platform) signals.platform = high.platform;
    if (high.model) signals.model = high.model;
  } catch {
    // A browser may refuse high-entropy hints: the user agent and the low-entropy hints are all there is.
  }
  return signals;
}
