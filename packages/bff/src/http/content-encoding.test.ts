/**
 * Choosing a content coding from `Accept-Encoding`: the client's q-values first, brotli before gzip before the
 * bytes as they are among equals, `identity` refused only when the client says so.
 */
import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './content-encoding';

const ALL = ['br', 'gzip', 'identity'] as const;

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, when the client accepts them equally (what browsers send)', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', ALL)).toBe('br');
    expect(chooseEncoding('gzip, deflate', ALL)).toBe('gzip');
    expect(chooseEncoding('GZIP', ALL)).toBe('gzip');
    expect(chooseEncoding('x-gzip', ALL)).toBe('gzip');
    expect(chooseEncoding('*', ALL)).toBe('br');
  });

  it('honours the client’s q-values over the server’s preference', () => {
    expect(chooseEncoding('br;q=0.5, gzip', ALL)).toBe('gzip');
    expect(chooseEncoding('br;q=0.5, gzip;q=0.8', ALL)).toBe('gzip');
    expect(chooseEncoding('br; q=0.9, gzip; q=0.8', ALL)).toBe('br');
    expect(chooseEncoding('br;q=0, gzip;q=0', ALL)).toBe('identity');
    expect(chooseEncoding('*;q=0.1, br;q=0', ALL)).toBe('gzip');
  });

  it('sends the bytes as they are without the header, with an empty one, or for codings it does not make', () => {
    expect(chooseEncoding(undefined, ALL)).toBe('identity');
    expect(chooseEncoding('', ALL)).toBe('identity');
    expect(chooseEncoding('deflate, zstd', ALL)).toBe('identity');
    expect(chooseEncoding('identity', ALL)).toBe('identity');
  });

  it('treats identity as acceptable but least wanted unless the client names it', () => {
    expect(chooseEncoding('gzip;q=0.1', ALL)).toBe('gzip');
    expect(chooseEncoding('gzip;q=0.1, identity;q=0.5', ALL)).toBe('identity');
  });

  it('finds nothing when the client refuses every coding offered', () => {
    expect(chooseEncoding('identity;q=0', ['identity'])).toBeUndefined();
    expect(chooseEncoding('*;q=0', ['identity'])).toBeUndefined();
    expect(chooseEncoding('gzip, identity;q=0', ['identity'])).toBeUndefined();
    expect(chooseEncoding('gzip, identity;q=0', ALL)).toBe('gzip');
    expect(chooseEncoding(undefined, ['br', 'gzip'])).toBeUndefined();
  });

  it('skips entries whose q-value cannot be read', () => {
    expect(chooseEncoding('br;q=2, gzip', ALL)).toBe('gzip');
    expect(chooseEncoding('br;q=abc, gzip;q=0.5', ALL)).toBe('gzip');
    expect(chooseEncoding(' , ;q=1, br', ALL)).toBe('br');
  });
});
