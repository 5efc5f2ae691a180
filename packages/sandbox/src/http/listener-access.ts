/**
 * @module
 * What the real service checks before a key is even read, for a test listener that wants it: a client
 * certificate signed by the configured CA (keys restricted by mTLS; `enterprise_auth_required` without one)
 * and the caller's address in an allowlist (keys restricted by CIDR; `forbidden` with reason
 * `cidr_not_allowed`). Listener-wide, not per key: enough to test a client's handling of both on loopback.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { API_VERSION, type ErrorCode } from '@esim-embed/shared';

/** The listener's restrictions. */
export interface ListenerAccessOptions {
  /** Refuse a request whose TLS connection did not present a client certificate the server trusts. */
  requireClientCertificate?: boolean;
  /** Refuse a request from outside these ranges (`203.0.113.0/24`, `::1/128`). Absent: any address. */
  allowedCidrs?: readonly string[];
}

/** The refusal of a request the listener does not let through, or null to let it through. */
export type ListenerAccess = (incoming: IncomingMessage) => Response | null;

/** The check of {@link ListenerAccessOptions}. */
export function listenerAccess(options: ListenerAccessOptions): ListenerAccess {
  const allowed = options.allowedCidrs ? blockListOf(options.allowedCidrs) : undefined;
  return (incoming) => {
    const socket = incoming.socket as Partial<TLSSocket>;
    if (options.requireClientCertificate && !presentedTrustedCertificate(socket)) {
      return refusal('enterprise_auth_required', { reason: 'client_certificate_required' });
    }
    if (allowed && !allows(allowed, incoming.socket.remoteAddress ?? '')) {
      return refusal('forbidden', { reason: 'cidr_not_allowed' });
    }
    return null;
  };
}

/**
 * The connection carries a client certificate the server trusts. `authorized` alone is not enough: Node.js counts
 * a resumed TLS 1.3 session as authorized even when its client never presented a certificate (a client without one
 * that reconnects resumes its own session), so the certificate itself must be there too.
 */
function presentedTrustedCertificate(socket: Partial<TLSSocket>): boolean {
  if (socket.authorized !== true) return false;
  const certificate = socket.getPeerCertificate?.();
  return certificate !== undefined && Object.keys(certificate).length > 0;
}

function blockListOf(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', prefix = ''] = cidr.split('/');
    list.addSubnet(address, Number(prefix), isIPv4(address) ? 'ipv4' : 'ipv6');
  }
  return list;
}

function allows(list: BlockList, address: string): boolean {
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
}

/** The contract's error envelope, 403. */
function refusal(code: ErrorCode, params: Record<string, unknown>): Response {
  const body = {
    error: { code, params },
    meta: { requestId: `req_${randomBytes(12).toString('hex')}`, apiVersion: API_VERSION },
  };
  return new Response(JSON.stringify(body), {
    status: 403,
    headers: { 'content-type': 'application/json' },
  });
}
