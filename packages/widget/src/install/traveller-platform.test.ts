/**
 * The install links and steps of the traveller's own phone come first; "Send to my phone" is offered at a
 * computer, told by the device's input and its own word rather than the window's width or the user agent alone.
 */
import { expect, it } from 'vitest';
import { atComputer, detectPlatform } from './traveller-platform';

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0';
const LINUX_DESKTOP_MODE = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0';

it('recognises iPhone, iPad (also when it claims to be a Mac), Android and computers', () => {
  expect(detectPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15')).toBe(
    'ios',
  );
  expect(detectPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 5)).toBe(
    'ios',
  );
  expect(detectPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 0)).toBe(
    'desktop',
  );
  expect(
    detectPlatform('Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/131.0 Mobile'),
  ).toBe('android');
  expect(detectPlatform('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0')).toBe(
    'desktop',
  );
});

it('is at a computer with a computer’s user agent and a mouse, whatever the window’s width', () => {
  expect(atComputer({ userAgent: WINDOWS_CHROME, mobile: false, finePointer: true })).toBe(true);
  // Browsers without userAgentData or media queries: the user agent decides, as before.
  expect(atComputer({ userAgent: WINDOWS_CHROME })).toBe(true);
});

it('is not at a computer on a phone showing the desktop site: a computer’s user agent, a touch-only input', () => {
  expect(
    atComputer({ userAgent: LINUX_DESKTOP_MODE, maxTouchPoints: 5, mobile: false, finePointer: false }),
  ).toBe(false);
  expect(atComputer({ userAgent: WINDOWS_CHROME, mobile: true, finePointer: true })).toBe(false);
  expect(
    atComputer({
      userAgent: 'Mozilla/5.0 (Linux; Android 15; Pixel 9) Chrome/131.0 Mobile',
      finePointer: true,
    }),
  ).toBe(false);
});
