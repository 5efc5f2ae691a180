/**
 * The device verdict: Android models by name against the dated lists (capable, incapable, unknown), what a
 * browser's user agent and Client Hints say, an iPhone, a computer; every language has every message.
 */
import { describe, expect, it } from 'vitest';
import { deviceCheckEn } from '../i18n/device-check/device-check-en';
import { WIDGET_LOCALES } from '../i18n/translator';
import { deviceCheckText, loadDeviceCheckMessages } from './device-check';
import { type DeviceSignals, deviceVerdict, readDeviceSignals } from './device-verdict';

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const android = (model: string): DeviceSignals => ({
  userAgent: ANDROID_UA,
  platform: 'Android',
  mobile: true,
  model,
});

describe('an Android phone by its model', () => {
  it.each([
    ['Pixel 3', 'Pixel 3'],
    ['Pixel 3a XL', 'Pixel 3a XL'],
    ['Pixel 8 Pro', 'Pixel 8 Pro'],
    ['Pixel 10', 'Pixel 10'],
    ['Pixel Fold', 'Pixel Fold'],
    ['SM-G981B', 'Galaxy S20'],
    ['SM-S918B', 'Galaxy S23'],
    ['SM-S928U1', 'Galaxy S24'],
    ['SM-F731B', 'Galaxy Z Flip5'],
    ['SM-F946U', 'Galaxy Z Fold5'],
  ])('%s can take an eSIM (%s)', (model, name) => {
    expect(deviceVerdict(android(model))).toEqual({ verdict: 'capable', device: 'android', model, name });
  });

  it.each([
    ['Pixel 2', 'Pixel 2'],
    ['Pixel XL', 'Pixel XL'],
    ['SM-G973F', 'Galaxy S10'],
    ['SM-A135F', 'Galaxy A13'],
    ['SM-A525F', 'Galaxy A52'],
  ])('%s cannot (%s)', (model, name) => {
    expect(deviceVerdict(android(model))).toEqual({ verdict: 'incapable', device: 'android', model, name });
  });

  it.each([
    'SM-S9180', // a mainland-China Galaxy S23: same name, no eSIM
    'SM-A556B', // a Galaxy A55, not on either list
    'Redmi Note 12',
    '',
  ])('%j is unknown: advice, no warning', (model) => {
    expect(deviceVerdict(android(model))).toMatchObject({ verdict: 'unknown', device: 'android' });
  });

  it('reads the model from an older user agent that names it, not from the reduced `K`', () => {
    const signals = {
      userAgent: 'Mozilla/5.0 (Linux; Android 9; SM-A505F Build/PPR1.180610.011) AppleWebKit/537.36',
    };
    expect(deviceVerdict(signals)).toMatchObject({ verdict: 'incapable', model: 'SM-A505F' });
    const samsungInternet =
      'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36';
    expect(deviceVerdict({ userAgent: samsungInternet })).toMatchObject({
      verdict: 'capable',
      name: 'Galaxy S23',
    });
    const firefox = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';
    expect(deviceVerdict({ userAgent: firefox })).toMatchObject({ verdict: 'unknown', device: 'android' });
    expect(deviceVerdict({ userAgent: ANDROID_UA })).toMatchObject({ verdict: 'unknown', model: null });
  });
});

describe('other devices', () => {
  it('an iPhone cannot be told apart by model', () => {
    const userAgent =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect(deviceVerdict({ userAgent })).toEqual({
      verdict: 'unknown',
      device: 'iphone',
      model: null,
      name: null,
    });
  });

  it('a computer is a desktop; an iPad that says "Macintosh" is not', () => {
    const mac =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15';
    expect(deviceVerdict({ userAgent: mac, maxTouchPoints: 0 }).device).toBe('desktop');
    expect(deviceVerdict({ userAgent: mac, maxTouchPoints: 5 }).device).toBe('other');
    expect(
      deviceVerdict({
        userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
        platform: 'Windows',
        mobile: false,
      }),
    ).toMatchObject({ verdict: 'unknown', device: 'desktop' });
  });
});

describe('what the browser says', () => {
  it('takes the model and platform from high-entropy Client Hints', async () => {
    const browser = {
      userAgent: ANDROID_UA,
      maxTouchPoints: 5,
      userAgentData: {
        mobile: true,
        platform: 'Android',
        getHighEntropyValues: async (hints: string[]) => ({
          ...(hints.includes('model') ? { model: 'SM-A135F' } : {}),
          ...(hints.includes('platform') ? { platform: 'Android' } : {}),
        }),
      },
    } as unknown as Navigator;
    const signals = await readDeviceSignals(browser);
    expect(signals).toMatchObject({ platform: 'Android', mobile: true, model: 'SM-A135F' });
    expect(deviceVerdict(signals).verdict).toBe('incapable');
  });

  it('falls back to the user agent when the browser refuses the hints', async () => {
    const browser = {
      userAgent: ANDROID_UA,
      maxTouchPoints: 5,
      userAgentData: {
        mobile: true,
        platform: 'Android',
        getHighEntropyValues: () => Promise.reject(new Error('NotAllowedError')),
      },
    } as unknown as Navigator;
    expect(deviceVerdict(await readDeviceSignals(browser))).toMatchObject({
      verdict: 'unknown',
      device: 'android',
    });
  });
});

describe('the words', () => {
  it.each(WIDGET_LOCALES)('%s has every message, with {phone} where English has it', async (locale) => {
    const table = await loadDeviceCheckMessages(locale);
    expect(Object.keys(table).sort()).toEqual(Object.keys(deviceCheckEn).sort());
    for (const [key, english] of Object.entries(deviceCheckEn)) {
      const text = table[key as keyof typeof deviceCheckEn];
      expect(text.trim(), `${locale}.${key}`).not.toBe('');
      expect(text.includes('{phone}'), `${locale}.${key}`).toBe(english.includes('{phone}'));
    }
    // The advice names the code to dial in every language.
    expect(table.checkPhone).toContain('*#06#');
    expect(table.checkOnPhone).toContain('*#06#');
  });

  it('warns only for an incapable phone, and names it', () => {
    const incapable = deviceCheckText(deviceVerdict(android('SM-A135F')), deviceCheckEn);
    expect(incapable).toEqual({
      warning: true,
      sentences: [
        'Your Galaxy A13 cannot take an eSIM, as far as we know. You can still buy one to install on another phone.',
      ],
    });
    const capable = deviceCheckText(deviceVerdict(android('Pixel 8')), deviceCheckEn);
    expect(capable.warning).toBe(false);
    expect(capable.sentences[0]).toBe('Your Pixel 8 can take an eSIM.');
    const desktop = deviceCheckText(
      deviceVerdict({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' }),
      deviceCheckEn,
    );
    expect(desktop.sentences).toEqual([deviceCheckEn.checkOnPhone, deviceCheckEn.locked]);
  });
});
