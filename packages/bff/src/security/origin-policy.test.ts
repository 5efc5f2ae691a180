/**
 * The origin table: what a widget's allowed origins let in, and the look-alikes they keep out.
 */
import { describe, expect, it } from 'vitest';
import { createOriginPolicy, normalizeOrigin, parseOriginPattern } from './origin-policy';

const policy = createOriginPolicy(['https://acme.com', 'https://*.shop.acme.com', 'http://localhost:8787']);

describe('origin policy', () => {
  it.each([
    'https://acme.com',
    'https://eu.shop.acme.com',
    'https://a.b.shop.acme.com',
    'http://localhost:8787',
  ])('allows %s', (origin) => {
    expect(policy.allow(origin)).toBe(origin);
  });

  it.each([
    [undefined, 'missing'],
    ['', 'empty'],
    ['null', 'opaque origin'],
    ['https://acme.com.evil.io', 'suffix trick'],
    ['https://evilacme.com', 'prefix look-alike'],
    ['https://acme.co', 'shorter'],
    ['http://acme.com', 'other scheme'],
    ['https://acme.com:8443', 'other port'],
    ['https://acme.com:443', 'explicit default port (browsers never send it)'],
    ['HTTPS://ACME.COM', 'upper case (browsers never send it)'],
    ['https://acme.com.', 'trailing dot'],
    ['https://user@acme.com', 'userinfo'],
    ['https://acme.com@evil.io', 'userinfo pointing elsewhere'],
    ['https://acme.com/', 'a path'],
    ['https://acme.com/path', 'a path'],
    ['https://acme.com?x=1', 'a query'],
    [' https://acme.com', 'whitespace'],
    ['https://acme.com\n', 'newline'],
    ['https://аcme.com', 'Cyrillic look-alike'],
    ['https://xn--cme-8cd.com', 'punycode look-alike'],
    ['*', 'wildcard'],
    ['https://*.acme.com', 'wildcard as an origin'],
    ['https://shop.acme.com', 'the bare domain of a subdomain pattern'],
    ['https://evilshop.acme.com', 'label-boundary look-alike of a pattern'],
    ['http://eu.shop.acme.com', 'pattern with another scheme'],
    ['https://eu.shop.acme.com:444', 'pattern with another port'],
    ['http://localhost', 'localhost without the port'],
    ['http://localhost:8788', 'localhost on another port'],
    ['http://127.0.0.1:8787', 'the same machine under another host name'],
    ['file://', 'file scheme'],
    ['javascript:alert(1)', 'not an origin'],
    ['https://acme.com\\@evil.io', 'backslash'],
  ])('refuses %j (%s)', (origin, _why) => {
    expect(policy.allow(origin)).toBeNull();
  });

  it('normalises config entries: scheme and host lower-cased, default port dropped', () => {
    expect(normalizeOrigin('HTTPS://Shop.Example:443')).toBe('https://shop.example');
    expect(normalizeOrigin('http://LOCALHOST:80')).toBe('http://localhost');
    expect(normalizeOrigin('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(createOriginPolicy(['HTTPS://ACME.COM:443']).allow('https://acme.com')).toBe('https://acme.com');
  });

  it('explains bad config entries', () => {
    expect(parseOriginPattern('https://acme.com/shop').problem).toMatch(/not an origin/);
    expect(parseOriginPattern('https://*.com').problem).toMatch(/top-level domain/);
    expect(parseOriginPattern('https://shop.*.acme.com').problem).toMatch(/first label/);
    expect(parseOriginPattern('ftp://acme.com').problem).toMatch(/not an origin/);
    expect(parseOriginPattern('https://*.acme.com').pattern).toEqual({
      kind: 'subdomain',
      scheme: 'https:',
      suffix: 'acme.com',
      port: '',
    });
  });

  it('refuses wildcards over public suffixes, ICANN and private sections alike', () => {
    for (const pattern of [
      'https://*.vercel.app',
      'https://*.github.io',
      'https://*.co.uk',
      'https://*.blogspot.com',
      'http://*.com.au:8080',
    ]) {
      expect(parseOriginPattern(pattern).problem, pattern).toMatch(/public suffix/);
    }
    for (const pattern of ['https://*.acme.co.uk', 'https://*.acme.github.io', 'https://*.shop.example']) {
      expect(parseOriginPattern(pattern).problem, pattern).toBeUndefined();
    }
  });
});
