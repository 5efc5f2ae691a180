/**
 * What the logo fetch refuses before it connects anywhere: a host that is (or resolves to) this machine, a
 * private network or link-local (cloud metadata) address, a scheme other than HTTPS; and what it takes for an
 * image: PNG, JPEG and GIF by their first bytes.
 */
import { describe, expect, it } from 'vitest';
import { TINY_PNG } from '../../testing/logo-host';
import { fetchLogo, isPublicAddress, LogoUnavailable, sniffLogoType } from './logo-fetch';

const PUBLIC_ONLY = { timeoutMs: 2_000, maxBytes: 1024, localUpstream: false };

describe('the logo fetch', () => {
  it('tells public addresses from this host, private networks and link-local ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses non-public hosts (named or literal) and other schemes before fetching', async () => {
    const refusal = (url: string) => fetchLogo(url, PUBLIC_ONLY).catch((error: unknown) => error);
    for (const url of [
      'https://localhost:1/logo.png',
      'https://127.0.0.1:1/logo.png',
      'https://[::1]:1/logo.png',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/logo.png',
    ]) {
      const error = await refusal(url);
      expect(error, url).toBeInstanceOf(LogoUnavailable);
      expect((error as Error).message, url).toMatch(/non-public address/);
    }
    for (const url of ['http://cdn.example/logo.png', 'file:///etc/passwd', 'data:image/png;base64,AAAA']) {
      expect(((await refusal(url)) as Error).message, url).toMatch(/not HTTPS/);
    }
    expect(((await refusal('https://user:pw@cdn.example/logo.png')) as Error).message).toMatch(/credentials/);
    // Beside a local sandbox only loopback is let through (over plain HTTP); other private hosts stay refused.
    const local = { ...PUBLIC_ONLY, localUpstream: true };
    const privateHost = await fetchLogo('https://10.0.0.1/logo.png', local).catch((error: unknown) => error);
    expect((privateHost as Error).message).toMatch(/non-public address/);
  });

  it('knows PNG, JPEG and GIF by their magic numbers, and nothing else', () => {
    expect(sniffLogoType(TINY_PNG)).toBe('image/png');
    expect(sniffLogoType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffLogoType(new TextEncoder().encode('GIF89a\x01\x00'))).toBe('image/gif');
    expect(sniffLogoType(new TextEncoder().encode('GIF87a\x01\x00'))).toBe('image/gif');
    expect(sniffLogoType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffLogoType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBeNull();
    expect(sniffLogoType(new Uint8Array([0x89, 0x50]))).toBeNull();
  });
});
