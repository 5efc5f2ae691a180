/**
 * @module
 * Structured JSON logs, one line per event, written by pino (to stdout in batches of at most 20 ms; no
 * worker-thread transport), or, for lines of one shape written per request, put together from pino's own parts.
 * Callers pass fields, never secrets: API keys, tokens, partner secrets, client secrets, LPA/activation codes and
 * delivery-link URLs must not be logged. Should one slip in all the same, `log-redaction.ts` writes it as
 * `[redacted]`.
 */
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { namesSecret, REDACT_PATHS, scrubFields } from './log-redaction';

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

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
  /**
   * A writer of one shape of line written very often (a kept read's access-log line): `writeLine(a, b)` writes
   * the line `logger[level](message, { [names[0]]: a, [names[1]]: b })` would, byte for byte, with its level,
   * time, bound fields and message put together once. Values are strings and numbers; no name may name a secret.
   */
  lineWriter(
    level: LogLevel,
    message: string,
    names: readonly string[],
  ): (...values: (string | number)[]) => void;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go (one JSON line per call, no newline); tests capture them here. Default: stdout. */
  write?: (line: string) => void;
  fields?: LogFields;
}

/**
 * stdout, written in batches: each line is encoded into one held buffer as it comes, and the buffer is written
 * once {@link WRITE_AT_BYTES} are held or {@link HOLD_MS} after its first line, whichever comes first — so an
 * access-log line is not a system call of its own (pino's asynchronous sonic-boom writes nearly one line a call at
 * the BFF's request rates; a write per turn of the event loop was still a tenth of a kept read's CPU, found in
 * the bench's profile). No string is kept: lines held as strings outlived the young generation's collections and
 * cost more than the writes they saved. Whatever is held is written before the process exits. One per process,
 * shared by every logger.
 */
let stdout: DestinationStream | undefined;
const HELD_BYTES = 64 * 1024;
const WRITE_AT_BYTES = 32 * 1024;
const HOLD_MS = 20;
function standardOutput(): DestinationStream {
  if (stdout !== undefined) return stdout;
  let held = Buffer.allocUnsafeSlow(HELD_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (used === 0) return;
    process.stdout.write(held.subarray(0, used));
    used = 0;
    // stdout kept the bytes to write later (it is not synchronous here): they are its own now.
    if (process.stdout.writableLength > 0) held = Buffer.allocUnsafeSlow(HELD_BYTES);
  };
  process.once('exit', flush);
  stdout = {
    write(line: string) {
      // A UTF-16 code unit is at most three bytes of UTF-8.
      if (used + line.length * 3 > held.length) {
        flush();
        if (line.length * 3 > held.length) {
          process.stdout.write(line);
          return;
        }
      }
      used += held.write(line, used);
      if (used >= WRITE_AT_BYTES) flush();
      else timer ??= setTimeout(flush, HOLD_MS).unref();
    },
  };
  return stdout;
}

/**
 * pino's ISO timestamp, formatted once per millisecond: `toISOString` costs half of an access-log line, and a busy
 * BFF writes dozens of lines in one millisecond.
 */
let lastMs = Number.NaN;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/** A JSON-lines logger: `{"level","time","message",…fields}`. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write;
  const destination: DestinationStream =
    write === undefined
      ? standardOutput()
      : { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) };
  const root = pino(
    {
      level: options.level ?? 'info',
      base: null,
      messageKey: 'message',
      timestamp: isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => scrubFields(fields) as Record<string, unknown>,
      },
      // Errors are already plain (name, message, cause) from the safety net: no stack from pino's serializer.
      serializers: { err: (error: unknown) => error },
      // A field that is there but empty (`token: null`) says something and gives nothing away.
      redact: { paths: [...REDACT_PATHS], censor: (value) => (value == null ? value : '[redacted]') },
    },
    destination,
  );
  return options.fields === undefined ? wrap(root) : wrap(root).child(options.fields);
}

/**
 * The BFF's {@link Logger} over a pino logger. The message goes in first among the line's own fields, so a line
 * reads `{"level","time",…bound fields,"message",…fields}` as it did before pino (pino would write it last):
 * whoever reads the lines by eye or by pattern (the reliability harness waits for `"message":"BFF listening"` then
 * its `url`) finds them unchanged.
 */
function wrap(logger: PinoLogger): Logger {
  // Levels are fixed for the process: a level below it is a no-op decided once, not a line built and dropped.
  const at = (level: LogLevel) =>
    logger.isLevelEnabled(level)
      ? (message: string, fields?: LogFields) =>
          logger[level](fields === undefined ? { message } : { message, ...fields })
      : () => {};
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    // pino's formatters do not see a child's fields: the safety net goes over them here, once per child.
    child: (fields) => wrap(logger.child(scrubFields(fields) as LogFields)),
    lineWriter: (level, message, names) => lineWriter(logger, level, message, names),
  };
}

/**
 * {@link Logger.lineWriter}: pino's own parts of a line — the level's opening, the bound fields (already
 * scrubbed), the stream — read once, so that each line is its time and values joined and written; pino's line
 * building (formatters, serializers, redaction, a field object per line) was most of a kept read's logging cost.
 */
function lineWriter(
  logger: PinoLogger,
  level: LogLevel,
  message: string,
  names: readonly string[],
): (...values: (string | number)[]) => void {
  if (!logger.isLevelEnabled(level)) return () => {};
  const secret = names.find(namesSecret);
  if (secret !== undefined) throw new Error(`a line writer cannot write ${secret}: it names a secret`);
  const parts = logger as unknown as Record<symbol, unknown>;
  const { lsCacheSym, chindingsSym, streamSym } = pino.symbols;
  const opening = (parts[lsCacheSym] as Record<number, string>)[logger.levels.values[level] as number];
  const bound = `${parts[chindingsSym] as string},"message":${JSON.stringify(message)}`;
  const keys = names.map((name) => `,${JSON.stringify(name)}:`);
  const stream = parts[streamSym] as DestinationStream;
  return (...values) => {
    let line = opening + isoTime() + bound;
    for (let index = 0; index < keys.length; index += 1) {
      const value = values[index];
      // As pino writes them: a number that is not finite is null.
      line +=
        keys[index] +
        (typeof value === 'number'
          ? Number.isFinite(value)
            ? String(value)
            : 'null'
          : JSON.stringify(value));
    }
    stream.write(`${line}}\n`);
  };
}
