/**
 * @module
 * Which phone the traveller is holding, to put the right install link and steps first (a guess from the user
 * agent; both platforms, the QR code and manual entry are always shown), and whether the traveller is at a
 * computer, to offer "Send to my phone": that follows the device's input and its own word
 * (`navigator.userAgentData.mobile`), not the window's width nor the user agent alone.
 */

/** The traveller's platform. */
export type TravellerPlatform = 'ios' | 'android' | 'desktop';

/** Guesses the platform from a user agent string (and touch points, since iPadOS claims to be a Mac). */
export function detectPlatform(userAgent: string, maxTouchPoints = 0): TravellerPlatform {
  if (/iPhone|iPad|iPod/i.test(userAgent) || (/Macintosh/i.test(userAgent) && maxTouchPoints > 1))
    return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'desktop';
}

/** The platform of this browser (`desktop` on a server). */
export function currentPlatform(): TravellerPlatform {
  if (typeof navigator === 'undefined') return 'desktop';
  return detectPlatform(navigator.userAgent, navigator.maxTouchPoints);
}

/** What the browser says of its device. */
export interface DeviceSignals {
  userAgent: string;
  maxTouchPoints?: number;
  /** `navigator.userAgentData.mobile`, where the browser has it. */
  mobile?: boolean;
  /** Whether the primary input hovers and points finely (`(hover: hover) and (pointer: fine)`), where known. */
  finePointer?: boolean;
}

/**
 * Whether the traveller is at a computer rather than holding the phone to install on: a computer's user agent,
 * not declared mobile, and a primary input that hovers and points finely (a mouse or touchpad). A phone showing
 * the desktop version of a site sends a computer's user agent but still has a coarse, touch-only input; a narrow
 * window on a computer keeps its mouse.
 */
export function atComputer(signals: DeviceSignals): boolean {
  if (detectPlatform(signals.userAgent, signals.maxTouchPoints) !== 'desktop') return false;
  if (signals.mobile === true) return false;
  return signals.finePointer !== false;
}

/** Whether this browser is at a computer (`atComputer`); on a server, yes. */
export function currentlyAtComputer(): boolean {
  if (typeof navigator === 'undefined') return true;
  const { userAgentData } = navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  const finePointer =
    typeof matchMedia === 'function' ? matchMedia('(hover: hover) and (pointer: fine)').matches : undefined;
  return atComputer({
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints,
    mobile: userAgentData?.mobile,
    finePointer,
  });
}
