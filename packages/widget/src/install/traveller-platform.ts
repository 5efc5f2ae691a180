/**
 * @module
 * Which phone the traveller is holding, to put the right install link and steps first. A guess from the
 * user agent; both platforms, the QR code and manual entry are always shown.
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
