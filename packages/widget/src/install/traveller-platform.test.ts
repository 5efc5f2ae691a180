/** The install links and steps of the traveller's own phone come first. */
import { expect, it } from 'vitest';
import { detectPlatform } from './traveller-platform';

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
