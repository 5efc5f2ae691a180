/** The logger: JSON lines at the configured level, secrets redacted by field name, a strict `LOG_LEVEL`. */
import { describe, expect, it } from 'vitest';
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
