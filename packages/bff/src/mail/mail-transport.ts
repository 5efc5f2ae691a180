/**
 * @module
 * The one way the BFF hands an email over: nodemailer's SMTP transport to the server of `ESIM_BFF_SMTP_URL`
 * (`smtp://`, with STARTTLS when the server offers it, or `smtps://`), a new connection per email, bounded waits.
 * A refusal or a failure is told as a {@link MailNotSent} whose `reason` is the server's reply code or the kind of
 * failure only: an SMTP server's words often quote the recipient's address, which must reach no log or record.
 * Nodemailer's own logger stays off for the same reason (it would write the envelope and the message).
 */
import { createTransport } from 'nodemailer';

/** One email to hand over (`to` is the traveller's address: never logged). */
export interface OutgoingEmail {
  from: { name: string; address: string };
  replyTo?: string | undefined;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The same for every attempt of one email, so a mailbox that got it twice shows it once. */
  messageId: string;
  /** Images the HTML part names by `cid:`. */
  inline: { contentId: string; filename: string; contentType: string; content: Buffer }[];
}

/** An email the server did not take (or whose handing over failed): `reason` is safe to log and keep. */
export class MailNotSent extends Error {
  override readonly name = 'MailNotSent';
  constructor(
    /** `smtp 550` (the server's reply code), or a failure's kind (`connection ECONNREFUSED`, `timeout`). */
    readonly reason: string,
  ) {
    super(`the email was not sent: ${reason}`);
  }
}

/** Hands emails to the SMTP server. */
export interface MailTransport {
  /** Resolves once the server accepted the email; rejects with {@link MailNotSent}. */
  send(email: OutgoingEmail): Promise<void>;
}

/** How long each step of a handover may wait: connecting, the server's greeting, any silence after. */
const TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;

/** The longest one handover can take at those bounds (a lease over an attempt must outlast it). */
export const LONGEST_HANDOVER_MS = TIMEOUTS_MS.connection + TIMEOUTS_MS.greeting + 4 * TIMEOUTS_MS.socket;

/** The reason of a failed handover, without the server's words. */
export function notSentReason(error: unknown): string {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number') return `smtp ${responseCode}`;
  if (code === 'ETIMEDOUT') return 'timeout';
  if (typeof code === 'string' && /^[A-Z_]{2,32}$/.test(code)) return `connection ${code}`;
  return 'connection failed';
}

/** The {@link MailTransport} of an SMTP URL (checked at start-up by `config/load-config.ts`). */
export function createMailTransport(smtpUrl: string): MailTransport {
  const transporter = createTransport({
    url: smtpUrl,
    connectionTimeout: TIMEOUTS_MS.connection,
    greetingTimeout: TIMEOUTS_MS.greeting,
    socketTimeout: TIMEOUTS_MS.socket,
    logger: false,
    debug: false,
    // The message is built in memory: nothing in it may make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(email) {
      try {
        await transporter.sendMail({
          from: email.from,
          ...(email.replyTo === undefined ? {} : { replyTo: email.replyTo }),
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: email.messageId,
          // An automatic message: out-of-office replies are not sent back to it (RFC 3834).
          headers: { 'Auto-Submitted': 'auto-generated' },
          attachments: email.inline.map((image) => ({
            filename: image.filename,
            content: image.content,
            contentType: image.contentType,
            cid: image.contentId,
            contentDisposition: 'inline' as const,
          })),
        });
      } catch (error) {
        throw new MailNotSent(notSentReason(error));
      }
    },
  };
}
