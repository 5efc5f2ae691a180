/**
 * @module
 * Structured JSON logs, one line per event. Callers pass fields, never secrets: API keys, tokens,
 * partner secrets, client secrets, LPA/activation codes and delivery-link URLs must not be logged.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

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

/** Errors serialize as name, message and cause chain — never a stack trace in a log line that may be shipped. */
function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, cause: value.cause };
  }
  return value;
}
