/**
 * Start-up config: errors that name the field, secrets only from the environment, the session secret, and
 * the built-in demo config (whose test keys must equal the sandbox's).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { DEMO_SECRET_DEFAULTS } from './default-config';
import { ConfigError, loadConfig, parseConfig } from './load-config';

const widget = {
  id: 'acme',
  displayName: 'Acme',
  environment: 'test',
  upstream: { baseUrl: 'https://api.partner.example/v2', apiKeyEnv: 'ACME_API_KEY' },
  allowedOrigins: ['https://acme.example'],
};
const quietLogger = () => {
  const lines: string[] = [];
  return { lines, logger: createLogger({ write: (line) => lines.push(line) }) };
};

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('config schema', () => {
  it('applies defaults: direct in test, recommended retail, every locale, sane limits', () => {
    const config = parseConfig({ widgets: [widget] });
    const [acme] = config.widgets;
    expect(acme).toMatchObject({
      checkoutMode: 'direct',
      pricing: { kind: 'recommended_retail' },
      defaultLocale: 'en',
      enabled: true,
      limits: {
        sessionsPerIpPerMinute: 30,
        quotesPerSession: 50,
        checkoutsPerSession: 5,
        directLiveOptIn: false,
      },
    });
    expect(config.sessionTtlSeconds).toBe(900);
    expect(config.trustedProxyHops).toBe(0);
  });

  it('keeps what it stores for the periods of the release before by default, and takes shorter or longer ones within bounds', () => {
    expect(parseConfig({ widgets: [widget] }).retention).toEqual({
      checkoutDays: 30,
      webhookDeliveryDays: 8,
      actionRequestDays: 90,
      esimDays: 730,
      salesLedgerDays: 400,
    });
    expect(
      parseConfig({ widgets: [widget], retention: { checkoutDays: 7, esimDays: 400 } }).retention,
    ).toEqual({
      checkoutDays: 7,
      webhookDeliveryDays: 8,
      actionRequestDays: 90,
      esimDays: 400,
      salesLedgerDays: 400,
    });
    expect(configError(() => parseConfig({ widgets: [widget], retention: { checkoutDays: 0 } }))).toMatch(
      /retention\.checkoutDays/,
    );
    expect(configError(() => parseConfig({ widgets: [widget], retention: { esimDays: 90 } }))).toMatch(
      /retention\.esimDays/,
    );
    expect(configError(() => parseConfig({ widgets: [widget], retention: { keepForever: true } }))).toMatch(
      /retention/,
    );
    // A delivery's record is kept while it is retried.
    expect(
      configError(() =>
        parseConfig({ widgets: [widget], webhookRetryHours: 72, retention: { webhookDeliveryDays: 3 } }),
      ),
    ).toMatch(/retention\.webhookDeliveryDays: must be longer than webhookRetryHours \(72 h\)/);
    expect(
      parseConfig({ widgets: [widget], webhookRetryHours: 72, retention: { webhookDeliveryDays: 4 } })
        .retention.webhookDeliveryDays,
    ).toBe(4);
  });

  it('names the bad field', () => {
    expect(
      configError(() =>
        parseConfig({ widgets: [{ ...widget, allowedOrigins: ['https://acme.example/shop'] }] }),
      ),
    ).toMatch(/widgets\[0\]\.allowedOrigins\[0\]: "https:\/\/acme\.example\/shop" is not an origin/);
    expect(
      configError(() =>
        parseConfig({ widgets: [{ ...widget, upstream: { ...widget.upstream, apiKeyEnv: 'sk_live_123' } }] }),
      ),
    ).toMatch(/widgets\[0\]\.upstream\.apiKeyEnv: an environment variable name/);
    expect(configError(() => parseConfig({ widgets: [widget], sessionTtlSeconds: 3600 }))).toMatch(
      /sessionTtlSeconds/,
    );
    expect(configError(() => parseConfig({ widgets: [widget, widget] }))).toMatch(
      /widgets\[1\]\.id: duplicate widget id/,
    );
    expect(configError(() => parseConfig({ widgets: [{ ...widget, colour: 'red' }] }))).toMatch(
      /widgets\[0\]/,
    );
  });

  it('takes brand overrides with HTTPS links or a logo path on the BFF, and names anything else', () => {
    const config = parseConfig({
      widgets: [
        { ...widget, brand: { logoUrl: '/brand/acme.svg', supportUrl: 'https://acme.example/help' } },
      ],
    });
    expect(config.widgets[0]?.brand.logoUrl).toBe('/brand/acme.svg');
    const message = configError(() =>
      parseConfig({
        widgets: [
          { ...widget, brand: { logoUrl: 'javascript:alert(1)', termsUrl: 'http://acme.example/t' } },
        ],
      }),
    );
    expect(message).toMatch(/widgets\[0\]\.brand\.logoUrl/);
    expect(message).toMatch(/widgets\[0\]\.brand\.termsUrl/);
  });

  it('says why a brand link or logo is refused, and takes null for no logo and no support link', () => {
    const refused = (brand: Record<string, unknown>) =>
      configError(() => parseConfig({ widgets: [{ ...widget, brand }] }));
    expect(refused({ termsUrl: 'http://127.0.0.1:19780/terms.html' })).toMatch(
      /brand\.termsUrl: "http:\/\/127\.0\.0\.1:19780\/terms\.html" is not HTTPS: brand links must start with https:\/\//,
    );
    expect(refused({ privacyUrl: 'acme.example/privacy' })).toMatch(
      /brand\.privacyUrl: .* is not an absolute URL/,
    );
    expect(refused({ supportUrl: 'https://user:pw@acme.example/help' })).toMatch(
      /carries a user name or password/,
    );
    expect(refused({ logoUrl: 'https://acme.example/logo.webp' })).toMatch(
      /is a \.webp file: a logo from another host/,
    );
    expect(refused({ logoUrl: 'https://acme.example/logo.svg' })).toMatch(/serve an SVG from the BFF/);
    expect(refused({ logoUrl: '/brand/logo' })).toMatch(/is not a PNG, JPEG, GIF or SVG file/);
    const extensionless = { logoUrl: 'https://cdn.acme.example/logo/4711?w=256' };
    expect(parseConfig({ widgets: [{ ...widget, brand: extensionless }] }).widgets[0]?.brand).toEqual(
      extensionless,
    );
    expect(refused({ logoUrl: 'http://acme.example/logo.png' })).toMatch(/not HTTPS.*a path on the BFF/);
    const config = parseConfig({
      widgets: [
        { ...widget, brand: { logoUrl: null, supportUrl: null, termsUrl: 'https://acme.example/t' } },
      ],
    });
    expect(config.widgets[0]?.brand).toEqual({
      logoUrl: null,
      supportUrl: null,
      termsUrl: 'https://acme.example/t',
    });
  });

  it('says who emails the traveller: the BFF (mail) or the partner by its own word, else nobody', () => {
    const senderOf = (overrides: Record<string, unknown>) =>
      parseConfig({ widgets: [{ ...widget, ...overrides }] }).widgets[0]?.emailSender;
    expect(senderOf({})).toBe('none');
    expect(senderOf({ partnerSendsEmail: false })).toBe('none');
    // The partner requires an address without anybody emailing it: asked for, nothing promised.
    expect(senderOf({ emailRequired: true })).toBe('none');
    expect(senderOf({ partnerSendsEmail: true })).toBe('partner');
    expect(senderOf({ mail: { from: 'Acme <esim@acme.example>' } })).toBe('partner');
    expect(senderOf({ deliveryMode: 'platform' })).toBe('upstream');
  });

  it('takes mail with partner delivery only, from a mailbox, and not beside the partner’s own sending', () => {
    const mail = { from: 'esim@acme.example', replyTo: 'Acme Help <help@acme.example>' };
    expect(parseConfig({ widgets: [{ ...widget, mail }] }).widgets[0]?.mail).toEqual(mail);
    expect(
      configError(() => parseConfig({ widgets: [{ ...widget, deliveryMode: 'platform', mail }] })),
    ).toMatch(/widgets\[0\]\.mail: goes with deliveryMode "partner" only/);
    expect(
      configError(() => parseConfig({ widgets: [{ ...widget, partnerSendsEmail: true, mail }] })),
    ).toMatch(/partnerSendsEmail: true says you email the installation details yourself/);
    expect(
      configError(() => parseConfig({ widgets: [{ ...widget, mail: { from: 'Acme <not an address>' } }] })),
    ).toMatch(/widgets\[0\]\.mail\.from: an email address/);
    expect(
      configError(() =>
        parseConfig({
          widgets: [
            {
              ...widget,
              environment: 'live',
              checkoutMode: 'partner_confirm',
              partnerSecretEnv: 'P',
              mail: { ...mail, manageUrl: 'http://acme.example/esim' },
            },
          ],
        }),
      ),
    ).toMatch(/mail\.manageUrl: live widgets need an HTTPS page/);
    expect(
      configError(() =>
        parseConfig({ widgets: [{ ...widget, deliveryMode: 'platform', partnerSendsEmail: false }] }),
      ),
    ).toMatch(/partnerSendsEmail: false goes with deliveryMode "partner" only/);
  });

  it('defaults live widgets to partner_confirm, which needs a partner secret', () => {
    expect(configError(() => parseConfig({ widgets: [{ ...widget, environment: 'live' }] }))).toMatch(
      /widgets\[0\]\.partnerSecretEnv: required for checkoutMode "partner_confirm"/,
    );
    const config = parseConfig({
      widgets: [{ ...widget, environment: 'live', partnerSecretEnv: 'ACME_PARTNER_SECRET' }],
    });
    expect(config.widgets[0]?.checkoutMode).toBe('partner_confirm');
  });

  it('requires an explicit opt-in and both spend caps for direct checkout in live, and HTTPS origins', () => {
    const live = { ...widget, environment: 'live', checkoutMode: 'direct' };
    const message = configError(() =>
      parseConfig({ widgets: [{ ...live, allowedOrigins: ['http://acme.example'] }] }),
    );
    expect(message).toMatch(/widgets\[0\]\.limits\.directLiveOptIn/);
    expect(message).toMatch(/widgets\[0\]\.limits\.maxSpendPerSession: required/);
    expect(message).toMatch(/widgets\[0\]\.limits\.maxSpendPerDay: required/);
    expect(message).toMatch(/widgets\[0\]\.allowedOrigins\[0\]: live widgets need HTTPS origins/);
    const ok = parseConfig({
      widgets: [
        {
          ...live,
          limits: {
            directLiveOptIn: true,
            maxSpendPerSession: { amountMinor: 5_000, currency: 'USD' },
            maxSpendPerDay: { amountMinor: 100_000, currency: 'USD' },
          },
        },
      ],
    });
    expect(ok.widgets[0]?.checkoutMode).toBe('direct');
  });
});

describe('loadConfig', () => {
  function writeConfig(value: unknown): string {
    const path = join(mkdtempSync(join(tmpdir(), 'bff-config-')), 'config.json');
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  }
  const secret = 'x'.repeat(40);
  const PARTNER = 'partner-secret-of-acme-0123456789abcdef';

  it('reads the file and takes every secret from the variables it names', () => {
    const path = writeConfig({ widgets: [{ ...widget, partnerSecretEnv: 'ACME_PARTNER' }] });
    const { logger } = quietLogger();
    const loaded = loadConfig(
      {
        ESIM_BFF_CONFIG: path,
        ACME_API_KEY: 'key-1',
        ACME_PARTNER: PARTNER,
        ESIM_BFF_SESSION_SECRET: secret,
      },
      logger,
    );
    expect(loaded.secrets.get('acme')).toEqual({ apiKey: 'key-1', partnerSecret: PARTNER });
    expect(Buffer.from(loaded.sessionSecret).toString()).toBe(secret);
  });

  it('takes the SMTP server of the installation emails from ESIM_BFF_SMTP_URL, never echoing it', () => {
    const env = { ESIM_BFF_SESSION_SECRET: secret, ACME_API_KEY: 'k' };
    const mailing = writeConfig({ widgets: [{ ...widget, mail: { from: 'esim@acme.example' } }] });
    const smtpUrl = 'smtps://esim:pa55word@smtp.acme.example:465';
    expect(
      loadConfig({ ...env, ESIM_BFF_CONFIG: mailing, ESIM_BFF_SMTP_URL: smtpUrl }, quietLogger().logger)
        .smtpUrl,
    ).toBe(smtpUrl);
    expect(configError(() => loadConfig({ ...env, ESIM_BFF_CONFIG: mailing }, quietLogger().logger))).toMatch(
      /ESIM_BFF_SMTP_URL is not set: the widget acme send/,
    );
    const refused = configError(() =>
      loadConfig(
        { ...env, ESIM_BFF_CONFIG: mailing, ESIM_BFF_SMTP_URL: 'https://esim:pa55word@smtp.acme.example' },
        quietLogger().logger,
      ),
    );
    expect(refused).toMatch(/ESIM_BFF_SMTP_URL is not an SMTP server's URL/);
    expect(refused).not.toContain('pa55word');
    // Without mail, an SMTP URL is read but sends nothing.
    const plain = writeConfig({ widgets: [widget] });
    expect(loadConfig({ ...env, ESIM_BFF_CONFIG: plain }, quietLogger().logger).smtpUrl).toBeUndefined();
  });

  it('fails with every missing secret named', () => {
    const path = writeConfig({ widgets: [{ ...widget, partnerSecretEnv: 'ACME_PARTNER' }] });
    expect(
      configError(() =>
        loadConfig({ ESIM_BFF_CONFIG: path, ESIM_BFF_SESSION_SECRET: secret }, quietLogger().logger),
      ),
    ).toMatch(/missing secrets: set the environment variables ACME_API_KEY, ACME_PARTNER/);
  });

  it('lists every secret problem of a production start at once: widget keys, short secrets, the session secret', () => {
    const path = writeConfig({
      widgets: [
        {
          ...widget,
          partnerSecretEnv: 'ACME_PARTNER',
          webhookUrl: 'https://acme.example/hooks',
          webhookSecretEnv: 'ACME_HOOKS',
        },
      ],
      operationsTokenEnv: 'ESIM_OPS_TOKEN',
    });
    const message = configError(() =>
      loadConfig({ ESIM_BFF_CONFIG: path, NODE_ENV: 'production', ACME_HOOKS: 'h' }, quietLogger().logger),
    );
    expect(message).toMatch(/missing secrets: set the environment variables ACME_API_KEY, ACME_PARTNER/);
    expect(message).toMatch(/ACME_HOOKS is shorter than 32 bytes/);
    expect(message).toMatch(/ESIM_BFF_SESSION_SECRET is not set/);
    expect(message).toMatch(/ESIM_OPS_TOKEN is not set/);
  });

  it('refuses partner and webhook secrets shorter than 32 bytes, naming their variables', () => {
    const path = writeConfig({
      widgets: [
        {
          ...widget,
          partnerSecretEnv: 'ACME_PARTNER',
          webhookUrl: 'https://acme.example/hooks',
          webhookSecretEnv: 'ACME_HOOKS',
        },
      ],
    });
    const env = { ESIM_BFF_CONFIG: path, ESIM_BFF_SESSION_SECRET: secret, ACME_API_KEY: 'k' };
    expect(
      configError(() =>
        loadConfig(
          { ...env, ACME_PARTNER: 'p'.repeat(31), ACME_HOOKS: 'h'.repeat(32) },
          quietLogger().logger,
        ),
      ),
    ).toMatch(/^ACME_PARTNER is shorter than 32 bytes/);
    expect(
      configError(() => loadConfig({ ...env, ACME_PARTNER: 'p', ACME_HOOKS: 'h' }, quietLogger().logger)),
    ).toMatch(/^ACME_PARTNER, ACME_HOOKS are shorter than 32 bytes/);
    expect(
      loadConfig({ ...env, ACME_PARTNER: 'p'.repeat(32), ACME_HOOKS: 'h'.repeat(32) }, quietLogger().logger)
        .source,
    ).toBe(path);
  });

  it('stops the start-up on a wildcard origin over a public suffix', () => {
    const path = writeConfig({ widgets: [{ ...widget, allowedOrigins: ['https://*.vercel.app'] }] });
    expect(
      configError(() =>
        loadConfig({ ESIM_BFF_CONFIG: path, ESIM_BFF_SESSION_SECRET: secret }, quietLogger().logger),
      ),
    ).toMatch(/allowedOrigins\[0\].*vercel\.app is a public suffix/);
  });

  it('reads the root secrets rotated out, newest first, each at least 32 bytes', () => {
    const path = writeConfig({ widgets: [widget] });
    const env = { ESIM_BFF_CONFIG: path, ESIM_BFF_SESSION_SECRET: secret, ACME_API_KEY: 'k' };
    expect(loadConfig(env, quietLogger().logger).previousSessionSecrets).toEqual([]);
    const older = 'o'.repeat(32);
    const oldest = 'p'.repeat(40);
    const loaded = loadConfig(
      { ...env, ESIM_BFF_PREVIOUS_SESSION_SECRETS: ` ${older}, ${oldest} ` },
      quietLogger().logger,
    );
    expect(loaded.previousSessionSecrets?.map((bytes) => Buffer.from(bytes).toString())).toEqual([
      older,
      oldest,
    ]);
    expect(
      configError(() =>
        loadConfig({ ...env, ESIM_BFF_PREVIOUS_SESSION_SECRETS: `${older},short` }, quietLogger().logger),
      ),
    ).toMatch(/ESIM_BFF_PREVIOUS_SESSION_SECRETS: entry 2 has 5 bytes/);
  });

  it('refuses a short session secret, and a missing one in production', () => {
    const path = writeConfig({ widgets: [widget] });
    const env = { ESIM_BFF_CONFIG: path, ACME_API_KEY: 'k' };
    expect(
      configError(() => loadConfig({ ...env, ESIM_BFF_SESSION_SECRET: 'short' }, quietLogger().logger)),
    ).toMatch(/at least 32/);
    expect(configError(() => loadConfig({ ...env, NODE_ENV: 'production' }, quietLogger().logger))).toMatch(
      /ESIM_BFF_SESSION_SECRET is not set/,
    );
  });

  it('warns loudly and uses a random per-process secret in development', () => {
    const path = writeConfig({ widgets: [widget] });
    const { lines, logger } = quietLogger();
    const loaded = loadConfig({ ESIM_BFF_CONFIG: path, ACME_API_KEY: 'k' }, logger);
    expect(loaded.sessionSecret.byteLength).toBeGreaterThanOrEqual(32);
    expect(lines.join('\n')).toMatch(/random per-process secret/);
  });

  it('names unreadable and malformed files', () => {
    expect(
      configError(() => loadConfig({ ESIM_BFF_CONFIG: '/nonexistent/config.json' }, quietLogger().logger)),
    ).toMatch(/cannot be read/);
    expect(
      configError(() => loadConfig({ ESIM_BFF_CONFIG: writeConfig('{ nope') }, quietLogger().logger)),
    ).toMatch(/not valid JSON/);
  });

  it('uses the built-in demo config without ESIM_BFF_CONFIG, but never in production', () => {
    const loaded = loadConfig({}, quietLogger().logger);
    expect(loaded.source).toBe('built-in demo config');
    expect(loaded.config.widgets.map((w) => `${w.id}:${w.checkoutMode}`)).toEqual([
      'demo-globetrotter:direct',
      'demo-globetrotter-pay:partner_confirm',
      'demo-aurora:direct',
      'demo-aurora-pay:partner_confirm',
      'demo-lagoon:direct',
      'demo-lagoon-pay:partner_confirm',
    ]);
    expect(loaded.config.widgets[0]?.allowedOrigins).toEqual(
      expect.arrayContaining(['http://localhost:8787', 'http://127.0.0.1:8787']),
    );
    expect(loaded.secrets.get('demo-aurora')?.apiKey).toBe(SANDBOX_KEYS.aurora);
    const elsewhere = loadConfig({ PORT: '9797' }, quietLogger().logger);
    expect(elsewhere.config.widgets[0]?.allowedOrigins).toEqual(
      expect.arrayContaining(['http://localhost:8787', 'http://localhost:9797', 'http://127.0.0.1:9797']),
    );
    expect(configError(() => loadConfig({ NODE_ENV: 'production' }, quietLogger().logger))).toMatch(
      /ESIM_BFF_CONFIG is not set/,
    );
  });

  it('keeps the demo keys equal to the sandbox’s published test keys', () => {
    expect(DEMO_SECRET_DEFAULTS.ESIM_DEMO_GLOBETROTTER_API_KEY).toBe(SANDBOX_KEYS.globetrotter);
    expect(DEMO_SECRET_DEFAULTS.ESIM_DEMO_AURORA_API_KEY).toBe(SANDBOX_KEYS.aurora);
    expect(DEMO_SECRET_DEFAULTS.ESIM_DEMO_LAGOON_API_KEY).toBe(SANDBOX_KEYS.lagoon);
  });
});
