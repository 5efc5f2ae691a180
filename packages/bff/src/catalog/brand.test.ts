import { type Account, type Brand, BrandSchema, WidgetBrandSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { DEFAULT_PRIMARY_COLOR, resolveWidgetBrand } from './brand';

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) }) };
}

const brand: Brand = BrandSchema.parse({
  displayName: 'Acme Travel',
  logoUrl: 'https://cdn.acme.example/logo.png',
  primaryColor: '#112233',
  supportEmail: 'help@acme.example',
  supportUrl: 'https://acme.example/help',
  customDomain: null,
  customDomainStatus: 'not_configured',
});

function account(
  overrides: Partial<Brand> | null = null,
): Pick<Account, 'name' | 'brand' | 'brandOverrides'> {
  return { name: 'Acme Ltd', brand, brandOverrides: overrides ? { ...brand, ...overrides } : null };
}

describe('resolveWidgetBrand', () => {
  it("takes the account's brand, then its brandOverrides, then the widget's overrides", () => {
    const { logger } = captureLogger();
    const accountLogo = (source: string) => `https://bff.example/logo?of=${encodeURIComponent(source)}`;
    expect(resolveWidgetBrand({ account: account(), accountLogo, logger })).toEqual({
      displayName: 'Acme Travel',
      // The account's logo at the BFF's address for it, never at the upstream's host.
      logoUrl: 'https://bff.example/logo?of=https%3A%2F%2Fcdn.acme.example%2Flogo.png',
      primaryColor: '#112233',
      supportEmail: 'help@acme.example',
      supportUrl: 'https://acme.example/help',
      termsUrl: null,
      privacyUrl: null,
    });
    const merged = resolveWidgetBrand({
      account: account({ displayName: 'Acme Holidays', primaryColor: '#445566' }),
      overrides: {
        primaryColor: '#aabbcc',
        termsUrl: 'https://acme.example/terms',
        supportUrl: null,
        logoUrl: null,
      },
      logger,
    });
    // null is the switch for no logo and no support link: the account's are not used either.
    expect(merged.logoUrl).toBeNull();
    // The widget's own logo is kept as it is; the account's is not shown where the BFF names no address.
    const own = { logoUrl: 'https://cdn.shop.example/logo.png' };
    expect(resolveWidgetBrand({ account: account(), overrides: own, accountLogo, logger }).logoUrl).toBe(
      own.logoUrl,
    );
    expect(resolveWidgetBrand({ account: account(), logger }).logoUrl).toBeNull();
    expect(merged.displayName).toBe('Acme Holidays');
    expect(merged.primaryColor).toBe('#AABBCC');
    expect(merged.termsUrl).toBe('https://acme.example/terms');
    expect(merged.supportUrl).toBeNull();
    expect(WidgetBrandSchema.parse(merged)).toEqual(merged);
  });

  it('drops invalid fields to their defaults with a warning naming the field', () => {
    const { lines, logger } = captureLogger();
    const result = resolveWidgetBrand({
      account: account(),
      overrides: {
        logoUrl: 'http://cdn.acme.example/logo.png',
        primaryColor: 'red',
        supportEmail: 'not-an-email',
        supportUrl: 'javascript:alert(1)',
        privacyUrl: 'https://user:pw@acme.example/privacy',
      },
      logger,
    });
    expect(result).toMatchObject({
      logoUrl: null,
      primaryColor: DEFAULT_PRIMARY_COLOR,
      supportEmail: null,
      supportUrl: null,
      privacyUrl: null,
    });
    expect(WidgetBrandSchema.safeParse(result).success).toBe(true);
    const warned = lines.filter((line) => line.level === 'warn').map((line) => line.field);
    expect(warned.sort()).toEqual(['logoUrl', 'primaryColor', 'privacyUrl', 'supportEmail', 'supportUrl']);
  });

  it('accepts HTTPS PNG, JPEG, GIF and extension-less logos, and SVG from its own origin only', () => {
    const { logger } = captureLogger();
    const logo = (logoUrl: string, publicOrigin?: string) =>
      resolveWidgetBrand({ account: account(), overrides: { logoUrl }, publicOrigin, logger }).logoUrl;
    expect(logo('https://cdn.example/a.JPG')).toBe('https://cdn.example/a.JPG');
    expect(logo('https://cdn.example/a.svg?v=2')).toBeNull();
    expect(logo('https://cdn.example/logo/1234?w=200')).toBe('https://cdn.example/logo/1234?w=200');
    expect(logo('https://cdn.example/v1.2/logo')).toBe('https://cdn.example/v1.2/logo');
    expect(logo('https://cdn.example/logo.html')).toBeNull();
    expect(logo('https://cdn.example/a.gif')).toBe('https://cdn.example/a.gif');
    expect(logo('https://cdn.example/a.webp')).toBeNull();
    expect(logo('https://cdn.example/logo')).toBe('https://cdn.example/logo');
    expect(logo('data:image/png;base64,AAAA')).toBeNull();
    expect(logo('/brand/acme.svg', 'http://localhost:8787')).toBe('http://localhost:8787/brand/acme.svg');
    expect(logo('/brand/acme.svg')).toBeNull();
    expect(logo('//evil.example/x.png', 'https://bff.example')).toBeNull();
  });

  it('falls back to the account name, the widget name and the default colour without an account', () => {
    const { logger } = captureLogger();
    const noAccount = resolveWidgetBrand({ account: null, fallbackName: 'Demo shop', logger });
    expect(noAccount).toEqual({
      displayName: 'Demo shop',
      logoUrl: null,
      primaryColor: DEFAULT_PRIMARY_COLOR,
      supportEmail: null,
      supportUrl: null,
      termsUrl: null,
      privacyUrl: null,
    });
    const unnamed = resolveWidgetBrand({
      account: { ...account(), brand: { ...brand, displayName: null } },
      logger,
    });
    expect(unnamed.displayName).toBe('Acme Ltd');
  });
});
