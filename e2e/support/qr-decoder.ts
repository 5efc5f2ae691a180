/**
 * @module
 * Reads a QR code the way a phone camera would: from pixels. The element is screenshotted, the PNG decoded
 * to RGBA by the browser itself (a blank page's canvas, so no PNG library and no page CSP in the way), and
 * the pixels handed to jsQR.
 */
import type { Locator } from '@playwright/test';
import jsQR from 'jsqr';

/** The text a QR code on screen encodes; throws when none can be read. */
export async function decodeQrCode(element: Locator): Promise<string> {
  // A quiet zone around the code helps the decoder, as the printed margin helps a camera.
  const png = await element.screenshot({ animations: 'disabled', scale: 'device' });
  const scratch = await element.page().context().newPage();
  try {
    const image = await scratch.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const margin = 16;
      const canvas = new OffscreenCanvas(bitmap.width + 2 * margin, bitmap.height + 2 * margin);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, margin, margin);
      const data = context.getImageData(0, 0, canvas.width, canvas.height);
      // The pixels cross back as base64 (a string is quick to hand over; an array of numbers is not).
      let binary = '';
      for (let start = 0; start < data.data.length; start += 0x8000) {
        binary += String.fromCharCode(...data.data.subarray(start, start + 0x8000));
      }
      return { width: data.width, height: data.height, pixels: btoa(binary) };
    }, png.toString('base64'));
    const code = jsQR(new Uint8ClampedArray(Buffer.from(image.pixels, 'base64')), image.width, image.height);
    if (!code) throw new Error(`no QR code could be read from the ${image.width}×${image.height} screenshot`);
    return code.data;
  } finally {
    await scratch.close();
  }
}
