/**
 * @module
 * Looking for secrets where they must never be: log lines and widget answers. A secret is found verbatim, or
 * as its URL-encoded or JSON-escaped form, so that a secret in a logged URL or a nested JSON string counts.
 */

/** The secrets of a run, by what they are (`upstream API key`, `session token #3`, `LPA`…). */
export type SecretBook = Map<string, string>;

/** Where each secret of `book` appears in `texts`: `[what, excerpt]` for every hit. */
export function findSecrets(texts: readonly string[], book: SecretBook): Array<[string, string]> {
  const hits: Array<[string, string]> = [];
  for (const [what, secret] of book) {
    if (secret.length < 8) throw new Error(`"${what}" is too short to search for reliably`);
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
    for (const text of texts) {
      for (const form of forms) {
        const at = text.indexOf(form);
        if (at >= 0) {
          hits.push([what, text.slice(Math.max(0, at - 60), at + form.length + 20)]);
          break;
        }
      }
    }
  }
  return hits;
}

/** The secrets every BFF of this suite holds: the sandbox keys it uses, the partner secret, the signing secret. */
export function serverSecrets(
  keys: Record<string, string>,
  partnerSecret: string,
  sessionSecret: Buffer,
): SecretBook {
  const book: SecretBook = new Map();
  for (const [name, key] of Object.entries(keys)) book.set(`upstream API key ${name}`, key);
  book.set('partner secret', partnerSecret);
  book.set('session-signing secret (base64url)', sessionSecret.toString('base64url'));
  book.set('session-signing secret (hex)', sessionSecret.toString('hex'));
  return book;
}
