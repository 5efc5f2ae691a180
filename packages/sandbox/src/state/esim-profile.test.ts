import { describe, expect, it } from 'vitest';
import { isLuhnValid, luhnCheckDigit, newIccid, newInstallation } from './esim-profile';
import { IdFactory } from './id-factory';

describe('eSIM profile data', () => {
  it('computes Luhn check digits', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398714')).toBe(false);
  });

  it('issues Luhn-valid ICCIDs of 19 or 20 digits starting with 89, deterministically', () => {
    const ids = new IdFactory(1, 'test');
    const iccids = Array.from({ length: 200 }, () => newIccid(ids));
    for (const iccid of iccids) {
      expect(iccid).toMatch(/^89\d{17,18}$/);
      expect(isLuhnValid(iccid)).toBe(true);
    }
    expect(new Set(iccids.map((iccid) => iccid.length))).toEqual(new Set([19, 20]));
    const again = new IdFactory(1, 'test');
    expect(newIccid(again)).toBe(iccids[0]);
  });

  it('builds the LPA, QR payload and install links from one activation code', () => {
    const install = newInstallation(new IdFactory(1, 'x'), 'smdp.example');
    expect(install.lpa).toMatch(/^LPA:1\$smdp\.example\$[A-Z0-9]{4}(?:-[A-Z0-9]{4}){3}$/);
    expect(install.lpa.endsWith(install.activationCode)).toBe(true);
    expect(install.qrPayload).toBe(install.lpa);
    expect(new URL(install.ios).searchParams.get('carddata')).toBe(install.lpa);
    expect(new URL(install.android).searchParams.get('carddata')).toBe(install.lpa);
  });
});
