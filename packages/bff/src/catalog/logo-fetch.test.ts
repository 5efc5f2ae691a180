/**
 * What the logo fetch refuses: a scheme other than HTTPS (plain HTTP on loopback too, whatever the upstream's
 * scheme), a host that is (or resolves to) this machine, a private, link-local, site-local, reserved or
 * otherwise non-public address — IPv6 forms carrying an IPv4 one judged by that IPv4 address — and a redirect
 * to another host (the operations server's `/metrics` among them); and what it takes for an image: PNG, JPEG
 * and GIF by their first bytes. Real servers on loopback count what reached them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LogoHost, startLogoHost, TINY_PNG } from '../../testing/logo-host';
import { fetchLogo, LogoUnavailable, sniffLogoType } from './logo-fetch';
import { isPublicAddress } from './public-address';

const PUBLIC_ONLY = { timeoutMs: 2_000, maxBytes: 1024 };

/** A plain-HTTP server on loopback that answers a PNG to anything and counts what reached it. */
let plain: { server: Server; port: number; requests: string[] };
let host: LogoHost;
beforeAll(async () => {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  plain = { server, port: (server.address() as AddressInfo).port, requests };
  host = await startLogoHost();
});
afterAll(async () => {
  await new Promise((resolve) => plain?.server.close(resolve));
  await host?.close();
});

const refusal = (url: string, options = PUBLIC_ONLY) =>
  fetchLogo(url, options).then(
    () => new Error(`${url} was fetched`),
    (error: unknown) => error as Error,
  );

describe('public addresses', () => {
  it('only unicast is public; IPv6 forms carrying an IPv4 address are judged by it', () => {
    const refused = {
      'this host': ['127.0.0.1', '127.1.2.3', '0.0.0.0', '::1', '::'],
      private: ['10.1.2.3', '172.16.0.1', '192.168.1.1', 'fd00::1', 'fc00::1'],
      'link-local (cloud metadata)': ['169.254.169.254', 'fe80::1', 'fe80::1%lo'],
      'CGNAT, benchmarking, reserved': ['100.64.0.1', '198.18.0.1', '240.0.0.1', '255.255.255.255'],
      'IETF protocol assignments 192.0.0.0/24': ['192.0.0.8', '192.0.0.170'],
      documentation: ['192.0.2.1', '198.51.100.1', '203.0.113.1', '2001:db8::1'],
      multicast: ['224.0.0.1', 'ff02::1'],
      'site-local fec0::/10': ['fec0::1', 'feff::1'],
      'IPv4-mapped and SIIT': ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:0:7f00:1'],
      'IPv4-compatible ::a.b.c.d': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::169.254.169.254'],
      'NAT64 64:ff9b::/96': ['64:ff9b::127.0.0.1', '64:ff9b::a00:1', '64:ff9b::169.254.169.254'],
      'NAT64 local use 64:ff9b:1::/48': ['64:ff9b:1::808:808'],
      '6to4 2002::/16': ['2002:7f00:1::', '2002:a00:1::1', '2002:a9fe:a9fe::'],
      'Teredo, discard, unassigned': ['2001::1', '100::1', '4000::1'],
      'not an address': ['not-an-ip', '0x7f.1', ''],
    };
    for (const [range, addresses] of Object.entries(refused)) {
      for (const address of addresses) expect(isPublicAddress(address), `${range}: ${address}`).toBe(false);
    }
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe('the logo fetch', () => {
  it('refuses loopback over plain HTTP, whatever the upstream: nothing reaches the host', async () => {
    for (const url of [
      `http://127.0.0.1:${plain.port}/logo.png`,
      `http://localhost:${plain.port}/logo.png`,
      `http://[::1]:${plain.port}/logo.png`,
    ]) {
      expect((await refusal(url)).message, url).toMatch(/not HTTPS/);
    }
    for (const url of ['http://cdn.example/logo.png', 'file:///etc/passwd', 'data:image/png;base64,AAAA']) {
      expect((await refusal(url)).message, url).toMatch(/not HTTPS/);
    }
    expect((await refusal('https://user:pw@cdn.example/logo.png')).message).toMatch(/credentials/);
    expect(plain.requests).toEqual([]);
  });

  it('refuses every non-public address, named or literal, before connecting', async () => {
    for (const url of [
      `https://localhost:${plain.port}/logo.png`,
      `https://127.0.0.1:${plain.port}/logo.png`,
      `https://[::1]:${plain.port}/logo.png`,
      `https://[::ffff:127.0.0.1]:${plain.port}/logo.png`,
      `https://[::127.0.0.1]:${plain.port}/logo.png`,
      `https://[64:ff9b::127.0.0.1]:${plain.port}/logo.png`,
      `https://[2002:7f00:1::]:${plain.port}/logo.png`,
      'https://[fec0::1]/logo.png',
      'https://192.0.0.8/logo.png',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/logo.png',
      'https://100.64.0.1/logo.png',
      'https://[fd00::1]/logo.png',
      'https://2130706433/logo.png',
    ]) {
      const error = await refusal(url);
      expect(error, url).toBeInstanceOf(LogoUnavailable);
      expect(error.message, url).toMatch(/non-public address/);
    }
    expect(plain.requests).toEqual([]);
  });

  it('fetches from a host it may reach over HTTPS, and follows a redirect within it', async () => {
    const options = { ...PUBLIC_ONLY, testHost: host.testHost };
    host.answer = (path) =>
      path === '/moved.png'
        ? { status: 302, headers: { location: '/logo.png' } }
        : { status: 200, body: TINY_PNG };
    const logo = await fetchLogo(host.logoUrl('/moved.png'), options);
    expect(logo.contentType).toBe('image/png');
    expect(host.requests.slice(-2)).toEqual(['/moved.png', '/logo.png']);
    // Without the test seam that same loopback host is refused.
    expect((await refusal(host.logoUrl('/logo.png'))).message).toMatch(/non-public address/);
  });

  it('refuses a redirect to another host: another port, plain HTTP, the operations server’s /metrics', async () => {
    const options = { ...PUBLIC_ONLY, testHost: host.testHost };
    for (const location of [
      `http://127.0.0.1:${plain.port}/metrics`,
      `https://127.0.0.1:${plain.port}/metrics`,
      `//127.0.0.1:${plain.port}/metrics`,
      'https://cdn.example/logo.png',
    ]) {
      host.answer = () => ({ status: 302, headers: { location } });
      const error = await refusal(host.logoUrl('/logo.png'), options);
      expect(error, location).toBeInstanceOf(LogoUnavailable);
      expect(error.message, location).toMatch(/another host|not HTTPS/);
    }
    expect(plain.requests).toEqual([]);
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
