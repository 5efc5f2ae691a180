/**
 * `Vary` merged, never overwritten: every token kept once, whatever its spelling or how many a value lists.
 */
import { describe, expect, it } from 'vitest';
import { varyWith, withHeaders } from './vary';

describe('varyWith', () => {
  it('adds each token once, names compared without case, lists taken apart', () => {
    expect(varyWith(undefined, 'Accept-Encoding')).toBe('Accept-Encoding');
    expect(varyWith('Origin', 'Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(varyWith('Origin', 'Origin, Sec-Fetch-Site', 'accept-encoding', 'ORIGIN')).toBe(
      'Origin, Sec-Fetch-Site, accept-encoding',
    );
    expect(varyWith(' Origin ,, Accept-Encoding', '')).toBe('Origin, Accept-Encoding');
  });

  it('keeps * as it is: it varies on everything already', () => {
    expect(varyWith('*', 'Origin')).toBe('*');
    expect(varyWith('Origin', '*')).toBe('*');
  });
});

describe('withHeaders', () => {
  it('writes the added headers over the base, but merges Vary', () => {
    expect(
      withHeaders(
        { Vary: 'Origin', 'Cache-Control': 'no-store', 'X-Request-Id': 'req_1' },
        { Vary: 'Accept-Encoding', 'Cache-Control': 'private' },
      ),
    ).toEqual({ Vary: 'Origin, Accept-Encoding', 'Cache-Control': 'private', 'X-Request-Id': 'req_1' });
    expect(withHeaders({ Vary: 'Origin' }, { ETag: '"x"' })).toEqual({ Vary: 'Origin', ETag: '"x"' });
    expect(withHeaders({}, { Vary: 'Accept-Encoding' })).toEqual({ Vary: 'Accept-Encoding' });
  });
});
