import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../app';
import { SANDBOX_KEYS } from '../seed/accounts';
import { loggablePath } from './access-log';

describe('access log', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes one JSON line per request, without the key, and redacts delivery tokens', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
    const { app } = createSandbox({ accessLog: true });
    await app.request('/capabilities', { headers: { 'X-Api-Key': SANDBOX_KEYS.globetrotter } });
    await app.request('/d/secret-token-123');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ method: 'GET', path: '/capabilities', status: 200 });
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({ path: '/d/[redacted]', status: 404 });
    expect(lines.join('\n')).not.toContain(SANDBOX_KEYS.globetrotter);
    expect(lines.join('\n')).not.toContain('secret-token-123');
    expect(loggablePath('/orders/ord_1')).toBe('/orders/ord_1');
  });

  it('is off by default', async () => {
    const spy = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { app } = createSandbox();
    await app.request('/healthz');
    expect(spy).not.toHaveBeenCalled();
  });
});
