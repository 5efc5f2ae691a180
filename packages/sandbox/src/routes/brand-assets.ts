/**
 * @module
 * The seeded brands' logos as small PNGs drawn in code (a ring and a dot in the brand colour), served at
 * `/assets/logos/{file}.png` so a demo can show them when the sandbox is reachable over HTTPS.
 */
import { crc32, deflateSync } from 'node:zlib';
import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env';
import { SEED_ACCOUNTS } from '../seed/accounts';

const SIZE = 96;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A square RGBA PNG: a ring and a centre dot in `color` on transparency. */
export function logoPng(color: string): Buffer {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  const rows: Buffer[] = [];
  const centre = (SIZE - 1) / 2;
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 4);
    for (let x = 0; x < SIZE; x++) {
      const distance = Math.hypot(x - centre, y - centre);
      const inked = (distance <= 46 && distance >= 36) || distance <= 18;
      if (inked) row.set([r ?? 0, g ?? 0, b ?? 0, 255], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `GET /assets/logos/{file}`: public, cacheable. */
export function brandAssetRoutes() {
  const routes = new Hono<SandboxEnv>();
  const logos = new Map(
    SEED_ACCOUNTS.flatMap((account) =>
      account.brand.logoFile && account.brand.primaryColor
        ? [[account.brand.logoFile, logoPng(account.brand.primaryColor)] as const]
        : [],
    ),
  );
  routes.get('/assets/logos/:file', function serveLogo(c) {
    const png = logos.get(c.req.param('file'));
    if (!png) return c.notFound();
    c.header('Content-Type', 'image/png');
    c.header('Cache-Control', 'public, max-age=86400');
    c.header('Access-Control-Allow-Origin', '*');
    return c.body(new Uint8Array(png));
  });
  return routes;
}
