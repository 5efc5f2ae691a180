/**
 * The QR code's path decodes to the text it was made from: the modules are painted to pixels exactly as the
 * SVG draws them (one unit square per `M x y h1v1h-1z`, on white with the quiet zone) and read with jsQR,
 * as the e2e suite reads the on-screen code.
 */
import jsQR from 'jsqr';
import { expect, it } from 'vitest';
import { qrPath } from './qr-code';

const PIXELS_PER_MODULE = 4;
const QUIET_ZONE = 4;

/** The text a `qrPath` symbol encodes, read from an RGBA raster of it. */
function decode(symbol: { size: number; path: string }): string | undefined {
  const extent = (symbol.size + QUIET_ZONE * 2) * PIXELS_PER_MODULE;
  const pixels = new Uint8ClampedArray(extent * extent * 4).fill(255);
  for (const [, x, y] of symbol.path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < PIXELS_PER_MODULE; dy++) {
      for (let dx = 0; dx < PIXELS_PER_MODULE; dx++) {
        const offset =
          ((Number(y) * PIXELS_PER_MODULE + dy) * extent + Number(x) * PIXELS_PER_MODULE + dx) * 4;
        pixels.fill(0, offset, offset + 3);
      }
    }
  }
  return jsQR(pixels, extent, extent)?.data;
}

it('draws an LPA activation string as a QR code that decodes to it', () => {
  const lpa = 'LPA:1$smdp.example.com$K2-1ZZ7A3-1PQRS4T-ABCDEF12';
  const symbol = qrPath(lpa);
  // Version 3 or more at level M for this length: 29 modules a side or more.
  expect(symbol.size).toBeGreaterThanOrEqual(29);
  expect(decode(symbol)).toBe(lpa);
});

it('encodes a delivery link with a long token', () => {
  const link = `https://bff.example.com/v1/deliveries/${'a1B2c3D4'.repeat(8)}?lang=de`;
  expect(decode(qrPath(link))).toBe(link);
});
