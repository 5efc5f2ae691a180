/** The QR encoder module of `qrcode` (typed by @types/qrcode's types for its `create`). */
declare module 'qrcode/lib/core/qrcode' {
  import type { QRCode, QRCodeOptions } from 'qrcode';
  export function create(text: string, options?: QRCodeOptions): QRCode;
}
