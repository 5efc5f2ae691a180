/**
 * @module
 * What an issued eSIM profile is made of: a Luhn-valid ICCID (19 or 20 digits, starting 89), an activation
 * code, the LPA string `LPA:1$<SM-DP+>$<code>` that the QR code carries, and the iOS / Android install links.
 */
import type { EsimInstallation } from '@esim-embed/shared';
import type { IdFactory } from './id-factory';

/** The Luhn check digit of a string of digits. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether a string of digits passes the Luhn check. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  return luhnCheckDigit(digits.slice(0, -1)) === Number(digits.at(-1));
}

/** A Luhn-valid ICCID: `89` (telecom), `882` (international networks), issuer `39`, serial, check digit. */
export function newIccid(ids: IdFactory): string {
  const length = ids.random() < 0.8 ? 19 : 20;
  const body = `8988239${ids.digits(length - 8)}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** The installation data of a profile. */
export function newInstallation(ids: IdFactory, smdpAddress: string): EsimInstallation {
  const activationCode = `${ids.code(4)}-${ids.code(4)}-${ids.code(4)}-${ids.code(4)}`;
  const lpa = `LPA:1$${smdpAddress}$${activationCode}`;
  const carddata = encodeURIComponent(lpa);
  return {
    lpa,
    qrPayload: lpa,
    smdpAddress,
    activationCode,
    ios: `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${carddata}`,
    android: `https://esimsetup.android.com/esim_qrcode_provisioning?carddata=${carddata}`,
  };
}
