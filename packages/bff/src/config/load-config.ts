/**
 * @module
 * Start-up: read and validate the config (`ESIM_BFF_CONFIG`, or the built-in demo config outside
 * production), then read every secret it names from the environment. Anything wrong stops the start with a
 * message that names the field or the variable — never a half-configured server.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import type { Logger } from '../logger';
import { MIN_SESSION_SECRET_BYTES } from '../security/session-token';
import { readUpstreamTls, type UpstreamTls } from './client-tls';
import { type BffConfig, BffConfigSchema, type WidgetConfig } from './config-schema';
import { DEFAULT_SANDBOX_URL, DEMO_SECRET_DEFAULTS, defaultConfig } from './default-config';

/** A config that cannot be used; the message says what to fix. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** One widget's secrets, read from the variables its config names. */
export interface WidgetSecrets {
  apiKey: string;
  partnerSecret: string | undefined;
  /** The webhook signing secret (absent: no webhooks for this widget). */
  webhookSecret?: string | undefined;
  /** The upstream connections' client certificate and CA (absent: none configured). */
  upstreamTls?: UpstreamTls | undefined;
}

/** The config with its secrets: what the BFF runs on. */
export interface LoadedConfig {
  config: BffConfig;
  secrets: Map<string, WidgetSecrets>;
  sessionSecret: Uint8Array;
  /** Root secrets rotated out, newest first: they verify what they signed, never sign (absent: none). */
  previousSessionSecrets?: readonly Uint8Array[] | undefined;
  /** Opens the details of `/readyz` (absent: only its status is ever shown). */
  operationsToken?: string | undefined;
  /**
   * The SMTP server the widgets with `mail` send their installation emails through (`ESIM_BFF_SMTP_URL`, its
   * credentials included: a secret). Absent: the BFF sends no email.
   */
  smtpUrl?: string | undefined;
  /** The console's single sign-on proxy's shared secret (`console.sso.secretEnv`), when one is configured. */
  consoleSsoSecret?: string | undefined;
  /** Where the config came from (a path, or "built-in demo config"). */
  source: string;
}

type Env = Record<string, string | undefined>;

/** zod issues as `widgets[0].allowedOrigins[1]: "…" is not an origin`, one per line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path
        .map((part, index) =>
          typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
        )
        .join('');
      return `  ${path || '(root)'}: ${issue.message}`;
    })
    .join('\n');
}

/** Validate a parsed config object; throws {@link ConfigError} naming each bad field. */
export function parseConfig(input: unknown, source = 'config'): BffConfig {
  const parsed = BffConfigSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(`${source} is invalid:\n${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** Read the secrets a config names; every missing or empty variable is listed in one error. */
export function resolveSecrets(config: BffConfig, env: Env): Map<string, WidgetSecrets> {
  const missing = new Set<string>();
  const read = (name: string): string => {
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      missing.add(name);
      return '';
    }
    return value;
  };
  const secrets = new Map<string, WidgetSecrets>();
  const problems: string[] = [];
  for (const widget of config.widgets as WidgetConfig[]) {
    secrets.set(widget.id, {
      apiKey: read(widget.upstream.apiKeyEnv),
      partnerSecret: widget.partnerSecretEnv === undefined ? undefined : read(widget.partnerSecretEnv),
      webhookSecret: widget.webhookSecretEnv === undefined ? undefined : read(widget.webhookSecretEnv),
      upstreamTls: readUpstreamTls(widget.upstream, read, problems),
    });
  }
  if (missing.size > 0) {
    problems.push(
      `missing secrets: set the environment variable${missing.size > 1 ? 's' : ''} ${[...missing].join(', ')} ` +
        '(the config names them; secrets are never written in the config file)',
    );
  }
  // A partner secret opens the partner API and a webhook secret signs what partners trust: like the
  // session-signing secret, neither may be short enough to guess.
  const short = new Set<string>();
  for (const widget of config.widgets as WidgetConfig[]) {
    for (const name of [widget.partnerSecretEnv, widget.webhookSecretEnv]) {
      if (name === undefined || missing.has(name)) continue;
      if (Buffer.byteLength(env[name] ?? '', 'utf8') < MIN_SESSION_SECRET_BYTES) short.add(name);
    }
  }
  if (short.size > 0) {
    problems.push(
      `${[...short].join(', ')} ${short.size > 1 ? 'are' : 'is'} shorter than ${MIN_SESSION_SECRET_BYTES} bytes: ` +
        'partner and webhook secrets need at least 32 random bytes (e.g. `openssl rand -base64 48`)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return secrets;
}

/**
 * Every secret the config needs, read and checked in one pass: each problem (a missing widget secret, a short
 * one, the session secret, the rotated-out ones, the operations token) is listed in one error, so that a start
 * names everything to set at once.
 */
function readSecrets(
  config: BffConfig,
  env: Env,
  widgetEnv: Env,
  logger: Logger,
): Omit<LoadedConfig, 'config' | 'source'> {
  const problems: string[] = [];
  const check = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return undefined as T;
    }
  };
  const loaded = {
    secrets: check(() => resolveSecrets(config, widgetEnv)),
    sessionSecret: check(() => resolveSessionSecret(config, env, logger)),
    previousSessionSecrets: check(() => resolvePreviousSessionSecrets(config, env)),
    operationsToken: check(() => resolveOperationsToken(config, env)),
    smtpUrl: check(() => resolveSmtpUrl(config, env)),
    consoleSsoSecret: check(() => resolveConsoleSsoSecret(config, env)),
  };
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return loaded;
}

/** The operations token named by `operationsTokenEnv` (≥ 32 bytes), or undefined when none is configured. */
export function resolveOperationsToken(config: BffConfig, env: Env): string | undefined {
  const name = config.operationsTokenEnv;
  if (name === undefined) return undefined;
  const value = env[name] ?? '';
  if (Buffer.byteLength(value, 'utf8') < MIN_SESSION_SECRET_BYTES) {
    throw new ConfigError(
      `${name} ${value === '' ? 'is not set' : 'is shorter than 32 bytes'}: the operations token (operationsTokenEnv) ` +
        'needs at least 32 random bytes (e.g. `openssl rand -base64 48`)',
    );
  }
  return value;
}

/** The console's single sign-on proxy secret (`console.sso.secretEnv`, ≥ 32 bytes), or undefined when none is named. */
export function resolveConsoleSsoSecret(config: BffConfig, env: Env): string | undefined {
  const name = config.console.sso?.secretEnv;
  if (name === undefined) return undefined;
  const value = env[name] ?? '';
  if (Buffer.byteLength(value, 'utf8') < MIN_SESSION_SECRET_BYTES) {
    throw new ConfigError(
      `${name} ${value === '' ? 'is not set' : 'is shorter than 32 bytes'}: the console's single sign-on proxy ` +
        'secret (console.sso.secretEnv) needs at least 32 random bytes (e.g. `openssl rand -base64 48`)',
    );
  }
  return value;
}

/** The variable naming the SMTP server of the installation emails. */
export const SMTP_URL_ENV = 'ESIM_BFF_SMTP_URL';

/**
 * The SMTP server's URL (`smtp://` or `smtps://`, with its credentials when it needs them), or undefined when none
 * is set. Required as soon as a widget has `mail`. Never echoed in a message: it may hold a password.
 */
export function resolveSmtpUrl(config: BffConfig, env: Env): string | undefined {
  const value = env[SMTP_URL_ENV]?.trim() ?? '';
  const mailing = config.widgets.filter((widget) => widget.mail !== undefined).map((widget) => widget.id);
  if (value === '') {
    if (mailing.length === 0) return undefined;
    throw new ConfigError(
      `${SMTP_URL_ENV} is not set: the widget${mailing.length > 1 ? 's' : ''} ${mailing.join(', ')} send ` +
        'installation emails (mail), through the SMTP server it names (smtp://user:password@host:587 or smtps://…:465)',
    );
  }
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (url === null || !['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '') {
    throw new ConfigError(
      `${SMTP_URL_ENV} is not an SMTP server's URL: write smtp://user:password@host:587 (STARTTLS when the ` +
        'server offers it) or smtps://user:password@host:465 (TLS from the start)',
    );
  }
  return value;
}

/** The root secrets rotated out (`previousSessionSecretsEnv`, comma-separated), each ≥ 32 bytes. */
export function resolvePreviousSessionSecrets(config: BffConfig, env: Env): Uint8Array[] {
  const name = config.previousSessionSecretsEnv;
  const values = (env[name] ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  return values.map((value, index) => {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.byteLength < MIN_SESSION_SECRET_BYTES) {
      throw new ConfigError(
        `${name}: entry ${index + 1} has ${bytes.byteLength} bytes; a root secret needs at least ` +
          `${MIN_SESSION_SECRET_BYTES} (list the previous ESIM_BFF_SESSION_SECRET values, comma-separated)`,
      );
    }
    return bytes;
  });
}

/** The session-signing secret: ≥ 32 bytes from the environment, or (outside production) a random one. */
export function resolveSessionSecret(config: BffConfig, env: Env, logger: Logger): Uint8Array {
  const value = env[config.sessionSecretEnv];
  if (value !== undefined && value !== '') {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.byteLength < MIN_SESSION_SECRET_BYTES) {
      throw new ConfigError(
        `${config.sessionSecretEnv} has ${bytes.byteLength} bytes; the session-signing secret needs at least ` +
          `${MIN_SESSION_SECRET_BYTES} (e.g. \`openssl rand -base64 48\`)`,
      );
    }
    return bytes;
  }
  if (env.NODE_ENV === 'production') {
    throw new ConfigError(
      `${config.sessionSecretEnv} is not set: in production the session-signing secret must come from the ` +
        'environment (at least 32 bytes, the same on every instance)',
    );
  }
  logger.warn(
    `!!! ${config.sessionSecretEnv} is not set: sessions are signed with a random per-process secret. They ` +
      'end when this process stops and are not valid on other instances. Set it in any real deployment. !!!',
    { sessionSecretEnv: config.sessionSecretEnv },
  );
  return randomBytes(48);
}

/**
 * The config the BFF runs on, from `ESIM_BFF_CONFIG` (a JSON file) or, when that is not set and
 * `NODE_ENV` is not `production`, the built-in demo config against the sandbox.
 */
export function loadConfig(env: Env, logger: Logger): LoadedConfig {
  const path = env.ESIM_BFF_CONFIG;
  if (path === undefined || path === '') {
    if (env.NODE_ENV === 'production') {
      throw new ConfigError('ESIM_BFF_CONFIG is not set: in production the BFF needs a config file');
    }
    const sandboxUrl = env.ESIM_BFF_SANDBOX_URL || DEFAULT_SANDBOX_URL;
    logger.warn('no ESIM_BFF_CONFIG: using the built-in demo config against the sandbox', { sandboxUrl });
    const port = Number(env.PORT ?? 8787);
    const config = parseConfig(
      defaultConfig(sandboxUrl, Number.isInteger(port) && port > 0 ? port : 8787),
      'the built-in demo config',
    );
    const withDemoSecrets: Env = { ...DEMO_SECRET_DEFAULTS, ...definedOnly(env) };
    return {
      config,
      ...readSecrets(config, env, withDemoSecrets, logger),
      source: 'built-in demo config',
    };
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`ESIM_BFF_CONFIG points to ${path}, which cannot be read`, { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${path} is not valid JSON: ${(cause as Error).message}`);
  }
  const config = parseConfig(json, path);
  return { config, ...readSecrets(config, env, env, logger), source: path };
}

function definedOnly(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
}
