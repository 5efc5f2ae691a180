/**
 * @module
 * What a failed TLS handshake with Redis tells the operator: the setting that asked for TLS, what went wrong in
 * the handshake and what to do, instead of the "connection closed" the client reports when a handshake fails.
 */
import type { RedisTarget } from './redis-target';

/** Certificates the BFF could not trace to a CA it trusts. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** What the handshake's error `code` means, and what to do; null for an error that is not the handshake's. */
function explain(code: string): string | null {
  if (UNTRUSTED.has(code))
    return "the server's certificate was signed by a CA this process does not trust: give the CA's certificate to Node through NODE_EXTRA_CA_CERTS";
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return "the server's certificate is out of its validity period: renew it on the server";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return "the server's certificate does not name the host connected to: connect by a name it names";
  // A plain Redis answers a TLS greeting with a protocol error, which the handshake reads as a bad record.
  if (code.startsWith('ERR_SSL_'))
    return 'the server does not speak TLS on that port: use its TLS port, or turn TLS off if it has none';
  if (code.startsWith('ERR_TLS_') || code.startsWith('CERT_')) return 'the TLS handshake failed';
  return null;
}

/** The setting that asked for TLS to `target`. */
const tlsSetting = (target: RedisTarget) =>
  target.kind === 'url' ? 'ESIM_BFF_REDIS_URL (rediss://)' : 'ESIM_BFF_REDIS_TLS=true';

/**
 * An error naming the setting and the cause when `error` is a failed TLS handshake with `target`, else null.
 *
 * @example
 * tlsFailure(socketError, { kind: 'url', url: 'rediss://cache:6380' })?.message
 * // "Redis over TLS (ESIM_BFF_REDIS_URL (rediss://)): the server's certificate was signed by a CA … (unable to verify the first certificate)"
 */
export function tlsFailure(error: unknown, target: RedisTarget): Error | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const meaning = explain(code);
  if (meaning === null) return null;
  const detail = error instanceof Error ? (error.message.split('\n')[0] ?? code) : code;
  return new Error(`Redis over TLS (${tlsSetting(target)}): ${meaning} (${code}: ${detail})`, {
    cause: error,
  });
}
