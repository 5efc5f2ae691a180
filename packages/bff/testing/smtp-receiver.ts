/**
 * @module
 * Test support: a real SMTP server (nodemailer's `smtp-server`) on a free loopback port that keeps every message
 * it accepts, parsed by `mailparser`, and refuses the next ones with a 5xx reply when told to — what the BFF's
 * installation emails are sent to in the tests (`ESIM_BFF_SMTP_URL` = {@link SmtpReceiver.url}); and the QR code of
 * an email's image read back (`jsqr` over `pngjs`).
 */
import jsQR from 'jsqr';
import { type ParsedMail, simpleParser } from 'mailparser';
import { PNG } from 'pngjs';
import { SMTPServer } from 'smtp-server';

/** A running SMTP server that receives the tests' emails. */
export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>`, for `ESIM_BFF_SMTP_URL`. */
  url: string;
  /** Every message accepted, parsed, in the order received. */
  received: ParsedMail[];
  /** Messages refused so far (a 5xx reply to the message's end). */
  refused: number;
  /** Refuse the next `count` messages with `responseCode` (after their whole body arrived, as a filter would). */
  refuseNext(count: number, responseCode?: number): void;
  close(): Promise<void>;
}

/** Start an SMTP server on a free loopback port (no TLS, no authentication: it is the test's own). */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ParsedMail[] = [];
  let toRefuse = 0;
  let refuseCode = 554;
  const receiver: SmtpReceiver = {
    url: '',
    received,
    refused: 0,
    refuseNext(count, responseCode = 554) {
      toRefuse = count;
      refuseCode = responseCode;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (toRefuse > 0) {
          toRefuse -= 1;
          receiver.refused += 1;
          callback(Object.assign(new Error('Message refused by the test'), { responseCode: refuseCode }));
          return;
        }
        // The HTML keeps its `cid:` references (the parser would otherwise inline the images as data URLs).
        simpleParser(Buffer.concat(chunks), { keepCidLinks: true }).then(
          (parsed) => {
            received.push(parsed);
            callback();
          },
          (error: unknown) => callback(error as Error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP server has no port');
  receiver.url = `smtp://127.0.0.1:${address.port}`;
  return receiver;
}

/** The text a QR code's PNG image holds (decoded by `jsqr`), or null when none can be read from it. */
export function qrTextOf(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}
