/**
 * @module
 * JSON serialization with parts encoded beforehand: a value the app hands out again unchanged (a catalog
 * view's list of hundreds of destinations) is encoded once and spliced into each answer that holds it, so
 * an answer costs the encoding of what is new in it. The text is the one `JSON.stringify` would write.
 *
 * How: an {@link EncodedJson} stands in for its value; `JSON.stringify` calls its `toJSON`, which writes a
 * mark (a string no answer holds: a NUL and a per-process random token) and notes itself; the marks are then
 * replaced, in order, by the encoded texts.
 */
import { randomBytes } from 'node:crypto';

/** The mark as a JSON string value: what `JSON.stringify` writes for each stand-in. */
const MARK = `\u0000encoded-json:${randomBytes(12).toString('base64url')}`;
const MARK_JSON = JSON.stringify(MARK);

/** The stand-ins met by the serialization under way (serializing is synchronous: one at a time). */
let met: EncodedJson[] | null = null;

/** Encodings at least this long are kept as bytes (copied into an answer), shorter ones as text. */
const KEPT_AS_BYTES = 4_096;

/** A value's JSON, written as is wherever the value stands in an answer. */
export class EncodedJson {
  /** A short encoding's text: spliced into the answer's text. */
  readonly text: string | null;
  /** A long encoding's UTF-8 bytes: an answer holding it copies them rather than encoding the text again. */
  readonly bytes: Buffer | null;

  constructor(json: string) {
    const long = json.length >= KEPT_AS_BYTES;
    this.text = long ? null : json;
    this.bytes = long ? Buffer.from(json) : null;
  }

  toJSON(): string {
    met?.push(this);
    return MARK;
  }
}

/** `value` encoded now, to stand in for it in later answers. */
export function encodedJson(value: unknown): EncodedJson {
  return new EncodedJson(JSON.stringify(value));
}

/**
 * `value` as JSON, every {@link EncodedJson} in it written as encoded: text while every encoding in it is short,
 * else the answer's bytes.
 */
export function stringifyAnswer(value: unknown): string | Buffer {
  const outer = met;
  met = [];
  let text: string;
  let found: EncodedJson[];
  try {
    text = JSON.stringify(value);
    found = met;
  } finally {
    met = outer;
  }
  if (found.length === 0) return text;
  const asBytes = found.some((part) => part.bytes !== null);
  const pieces: (string | Buffer)[] = [];
  let from = 0;
  for (const part of found) {
    const at = text.indexOf(MARK_JSON, from);
    pieces.push(text.slice(from, at), part.bytes ?? (part.text as string));
    from = at + MARK_JSON.length;
  }
  pieces.push(text.slice(from));
  if (!asBytes) return pieces.join('');
  return Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
}
