/**
 * @module
 * Structured JSON logs, one line per event. Callers pass fields, never secrets: API keys, tokens,
 * partner secrets, client secrets, LPA/activation codes and delivery-link URLs must not be logged. Should one
 * slip in all the same under a field name that carries a secret (at any depth), its value is written as
 * `[redacted]`.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * The level named by `LOG_LEVEL` (case-insensitive), `info` when unset; a value that names none throws with the
 * ones it may name, so a typo stops the start instead of logging everything or nothing.
 */
export function logLevelFrom(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  const level = LOG_LEVELS.find((name) => name === value.toLowerCase());
  if (level === undefined) throw new Error(`LOG_LEVEL=${value} is not one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/** Field names whose values are secrets or the product itself, compared without case, `-` or `_`. */
const REDACTED_FIELDS = new Set(
  [
    'apiKey',
    'xApiKey',
    'authorization',
    'token',
    'sessionToken',
    'manageToken',
    'clientSecret',
    'xCheckoutSecret',
    'partnerSecret',
    'xPartnerSecret',
    'webhookSecret',
    'secret',
    'password',
    'lpa',
    'activationCode',
    'qrPayload',
    'deliveryLinkUrl',
    'manageUrl',
  ].map((name) => name.toLowerCase()),
);
const fieldKey = (name: string) => name.replace(/[-_]/g, '').toLowerCase();

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; tests capture them here. */
  write?: (line: string) => void;
  fields?: LogFields;
}

/** A JSON-lines logger. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const minimum = LEVEL_RANK[options.level ?? 'info'];
  const write = options.write ?? writeToStdout;
  const base = options.fields ?? {};

  function log(level: LogLevel, message: string, fields?: LogFields): void {
    if (LEVEL_RANK[level] < minimum) return;
    write(
      JSON.stringify({ time: new Date().toISOString(), level, message, ...base, ...fields }, errorReplacer),
    );
  }

  return {
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
    child: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
  };
}

/**
 * Lines for stdout, written together once per turn of the event loop, so that an access-log line is not a
 * system call of its own in every request. Whatever is pending is written before the process exits.
 */
let pendingLines: string[] = [];
let flushOnExit = false;
function flushLines(): void {
  if (pendingLines.length === 0) return;
  const text = `${pendingLines.join('\n')}\n`;
  pendingLines = [];
  process.stdout.write(text);
}
function writeToStdout(line: string): void {
  if (pendingLines.length === 0) {
    setImmediate(flushLines);
    if (!flushOnExit) {
      flushOnExit = true;
      process.once('exit', flushLines);
    }
  }
  pendingLines.push(line);
}

/**
 * Errors serialize as name, message and cause chain — never a stack trace in a log line that may be shipped;
 * a field named for a secret is written as `[redacted]`.
 */
function errorReplacer(key: string, value: unknown): unknown {
  if (key !== '' && value !== null && value !== undefined && REDACTED_FIELDS.has(fieldKey(key))) {
    return '[redacted]';
  }
  if (value instanceof Error) {
    return { name: value.name, message: value.message, cause: value.cause };
  }
  return value;
}
