/** The logger: JSON lines at the configured level, secrets redacted by field name, a strict `LOG_LEVEL`. */
import { describe, expect, it, vi } from 'vitest';
import { REDACT_PATHS } from './log-redaction';
import { createLogger, logLevelFrom } from './logger';

function capture(level: Parameters<typeof createLogger>[0] = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ ...level, write: (line) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('the logger', () => {
  it('writes a field named for a secret as [redacted], at any depth, and leaves the rest', () => {
    const { logger, lines } = capture();
    logger.child({ widgetId: 'acme' }).warn('upstream answered', {
      checkoutId: 'chk_1',
      request: {
        headers: { 'X-Api-Key': 'sk_live_abc', Authorization: 'Bearer eyJ…', accept: 'application/json' },
      },
      clientSecret: 'cs_k1_mac',
      installation: { lpa: 'LPA:1$smdp$CODE', activation_code: 'CODE', iccid: '8901' },
      deliveryLinkUrl: 'https://upstream.example/d/secret',
      token: null,
    });
    const [line] = lines;
    expect(line).toMatchObject({
      level: 'warn',
      widgetId: 'acme',
      checkoutId: 'chk_1',
      request: {
        headers: { 'X-Api-Key': '[redacted]', Authorization: '[redacted]', accept: 'application/json' },
      },
      clientSecret: '[redacted]',
      installation: { lpa: '[redacted]', activation_code: '[redacted]', iccid: '8901' },
      deliveryLinkUrl: '[redacted]',
      token: null,
    });
    expect(JSON.stringify(lines)).not.toMatch(/sk_live_abc|eyJ|cs_k1_mac|LPA:1|d\/secret/);
  });

  it('redacts a secret in a nested field, in an error and its cause, in a header object, in a child logger', () => {
    const { logger, lines } = capture();
    const cause = Object.assign(new Error('upstream refused'), { headers: { 'x-api-key': 'sk_test_cause' } });
    logger.child({ request: { headers: { 'X-Partner-Secret': 'ps_child' } } }).error('confirm failed', {
      widget: { upstream: { secrets: { deep: { WEBHOOK_SECRET: 'whsec_deep' } } } },
      error: new Error('confirm failed', { cause: { partnerSecret: 'ps_cause', reason: 'expired' } }),
      chain: new Error('outer', { cause }),
      response: { headers: { authorization: 'Bearer sess_tok', 'x-manage-token': 'mt_abc' } },
      links: [{ manage_url: 'https://bff.example/m/mt_list', id: 'ml_1' }],
      redisUrl: 'redis://:hunter2@redis:6379',
      installation: { smtpUrl: 'smtps://esim:pa55word@smtp.example', email: 'ana@example.com' },
    });
    const [line] = lines;
    expect(line).toMatchObject({
      level: 'error',
      message: 'confirm failed',
      request: { headers: { 'X-Partner-Secret': '[redacted]' } },
      widget: { upstream: { secrets: { deep: { WEBHOOK_SECRET: '[redacted]' } } } },
      error: {
        name: 'Error',
        message: 'confirm failed',
        cause: { partnerSecret: '[redacted]', reason: 'expired' },
      },
      chain: { message: 'outer', cause: { name: 'Error', message: 'upstream refused' } },
      response: { headers: { authorization: '[redacted]', 'x-manage-token': '[redacted]' } },
      links: [{ manage_url: '[redacted]', id: 'ml_1' }],
      redisUrl: '[redacted]',
      installation: { smtpUrl: '[redacted]', email: '[redacted]' },
    });
    // An error is its name, message and cause: never a stack, nor the fields hung on it.
    expect(JSON.stringify(line)).not.toMatch(
      /ps_child|whsec_deep|ps_cause|sk_test_cause|sess_tok|mt_abc|mt_list|hunter2|pa55word|ana@|at .*\.ts/,
    );
  });

  it('has a pino redaction path for each secret field where the BFF puts it', () => {
    expect(REDACT_PATHS).toEqual(
      expect.arrayContaining([
        'apiKey',
        'clientSecret',
        'lpa',
        'request.headers["authorization"]',
        'headers["X-Api-Key"]',
      ]),
    );
  });

  it('writes level, time and the message before the fields of the line, as before pino', () => {
    const raw: string[] = [];
    const logger = createLogger({ write: (line) => raw.push(line) });
    logger.info('BFF listening', { url: 'http://localhost:8787', store: 'memory' });
    expect(raw[0]).toMatch(
      /^\{"level":"info","time":"[^"]+","message":"BFF listening","url":"http:\/\/localhost:8787","store":"memory"\}$/,
    );
  });

  it('stamps each line with the millisecond it was written in', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { logger, lines } = capture();
      vi.setSystemTime(new Date('2026-11-26T10:00:00.000Z'));
      logger.info('first');
      logger.info('same millisecond');
      vi.setSystemTime(new Date('2026-11-26T10:00:00.001Z'));
      logger.info('next millisecond');
      vi.setSystemTime(new Date('2026-11-27T08:30:12.345Z'));
      logger.info('next day');
      expect(lines.map((line) => line.time)).toEqual([
        '2026-11-26T10:00:00.000Z',
        '2026-11-26T10:00:00.000Z',
        '2026-11-26T10:00:00.001Z',
        '2026-11-27T08:30:12.345Z',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes with a line writer the very line the logger would, bound fields and all', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-26T10:00:00.000Z'));
      const raw: string[] = [];
      const logger = createLogger({ write: (line) => raw.push(line), fields: { service: 'bff' } }).child({
        method: 'GET',
        path: '/v1/catalog/"quoted"/ünïcode',
        status: 200,
      });
      const writeLine = logger.lineWriter('info', 'request', ['requestId', 'durationMs']);
      for (const [requestId, durationMs] of [
        ['req_abc', 0.3],
        ['req_"odd"\n', 12],
        ['req_x', Number.NaN],
      ] as const) {
        logger.info('request', { requestId, durationMs });
        writeLine(requestId, durationMs);
      }
      expect(raw).toHaveLength(6);
      for (let line = 0; line < 6; line += 2) expect(raw[line + 1]).toBe(raw[line]);
      expect(JSON.parse(raw[3] as string)).toMatchObject({ requestId: 'req_"odd"\n', durationMs: 12 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a line writer of a secret, and writes nothing below the level', () => {
    const { logger, lines } = capture({ level: 'warn' });
    expect(() => logger.lineWriter('warn', 'request', ['requestId', 'sessionToken'])).toThrow('sessionToken');
    logger.lineWriter('info', 'request', ['requestId'])('req_quiet');
    logger.lineWriter('error', 'request', ['requestId'])('req_loud');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', message: 'request', requestId: 'req_loud' }),
    ]);
  });

  it('logs at the level asked for', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.info('quiet');
    logger.error('loud');
    expect(lines.map((line) => line.message)).toEqual(['loud']);
  });

  it('reads LOG_LEVEL strictly: unset is info, a typo stops the start with the allowed names', () => {
    expect(logLevelFrom(undefined)).toBe('info');
    expect(logLevelFrom('')).toBe('info');
    expect(logLevelFrom('WARN')).toBe('warn');
    expect(() => logLevelFrom('verbose')).toThrow('LOG_LEVEL=verbose is not one of debug, info, warn, error');
  });
});

describe('lines on standard output', () => {
  it('holds lines for 20 ms, or until 32 KB are held, and writes them together in their order', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const writes: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      writes.push(String(text));
      return true;
    });
    try {
      const logger = createLogger();
      for (let line = 0; line < 5; line += 1) logger.info('request', { line, word: 'ünïcode' });
      vi.advanceTimersByTime(19);
      expect(writes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(writes).toHaveLength(1);
      const lines = (writes[0] as string)
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text));
      expect(lines.map((entry) => [entry.line, entry.word])).toEqual(
        [0, 1, 2, 3, 4].map((line) => [line, 'ünïcode']),
      );
      // A crowd's lines do not wait for the timer: 32 KB are written at once, nothing lost or reordered.
      const padding = 'x'.repeat(1_000);
      for (let line = 0; line < 40; line += 1) logger.info('request', { line, padding });
      expect(writes).toHaveLength(2);
      vi.advanceTimersByTime(20);
      expect(writes).toHaveLength(3);
      const crowd = writes
        .slice(1)
        .join('')
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text).line);
      expect(crowd).toEqual([...Array(40).keys()]);
      // A line larger than what is held goes out whole, after what was held before it.
      logger.info('first');
      logger.info('huge', { padding: 'y'.repeat(100_000) });
      expect(writes.slice(3).map((text) => JSON.parse(text.trim().split('\n')[0] as string).message)).toEqual(
        ['first', 'huge'],
      );
    } finally {
      write.mockRestore();
      vi.useRealTimers();
    }
  });
});
