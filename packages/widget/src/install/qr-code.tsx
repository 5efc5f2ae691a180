/**
 * @module
 * A QR code drawn from the encoder's module matrix as Preact SVG elements: one `<path>` of unit squares
 * on a white `<rect>` with the quiet zone. No SVG string, no data URL, no `innerHTML`: nothing for a
 * strict CSP or Trusted Types to refuse.
 */
import { useMemo } from 'preact/hooks';
// `create` of qrcode's public API: the module matrix only; its canvas and SVG-string renderers stay unused.
import { create } from 'qrcode';
import { qrImage } from './install-step.css';

/** Props of `QrCode`. */
export interface QrCodeProps {
  /** The text to encode (an LPA string, a URL). */
  value: string;
  /** The accessible name of the image. */
  label: string;
  /** Rendered size in CSS pixels. */
  size?: number;
}

const QUIET_ZONE = 4;

/** The SVG path of the dark modules of `value`'s QR code, and the symbol's size in modules. */
export function qrPath(value: string): { size: number; path: string } {
  const { modules } = create(value, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (modules.get(row, column)) path += `M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: modules.size, path };
}

/** A scannable QR code. */
export function QrCode({ value, label, size = 240 }: QrCodeProps) {
  const symbol = useMemo(() => qrPath(value), [value]);
  const extent = symbol.size + QUIET_ZONE * 2;
  return (
    <svg
      part="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${extent} ${extent}`}
      shape-rendering="crispEdges"
      class={qrImage}
    >
      <rect width={extent} height={extent} fill="#ffffff" />
      <path d={symbol.path} fill="#000000" />
    </svg>
  );
}
