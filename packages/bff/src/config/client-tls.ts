/**
 * @module
 * The TLS identity of a widget's upstream connections: a client certificate and its key for keys restricted
 * by mTLS, and the CA of an upstream behind a private CA, each read from the environment variable the
 * widget's upstream config names (PEM, never in the config file). Checked at start-up — a certificate that
 * does not parse, a key that is not the certificate's, an expired certificate — so that a bad variable stops
 * the start with its name, not the first sale with a handshake error.
 */
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import type { WidgetConfig } from './config-schema';

/** What the upstream pool presents and trusts (PEM). */
export interface UpstreamTls {
  /** The client certificate (chain) presented to the upstream. */
  cert?: string | undefined;
  /** Its private key. */
  key?: string | undefined;
  /** CA certificates trusted for the upstream's server certificate, instead of the public roots. */
  ca?: string | undefined;
}

/** The identity's digest: pools are shared only by clients that present the same identity. */
export function tlsIdentity(tls: UpstreamTls | undefined): string {
  if (!tls) return 'none';
  return createHash('sha256')
    .update([tls.cert ?? '', tls.key ?? '', tls.ca ?? ''].join('\u0000'))
    .digest('base64url')
    .slice(0, 16);
}

/**
 * Reads and checks the TLS identity a widget's upstream config names, or undefined when it names none.
 * `read` returns a variable's value ('' when missing: the caller reports missing variables); every problem
 * found is added to `problems`, naming the variable, never its content.
 */
export function readUpstreamTls(
  upstream: WidgetConfig['upstream'],
  read: (name: string) => string,
  problems: string[],
): UpstreamTls | undefined {
  const { clientCertificateEnv, clientKeyEnv, caCertificateEnv } = upstream;
  if (clientCertificateEnv === undefined && caCertificateEnv === undefined) return undefined;
  const tls: UpstreamTls = {};
  if (caCertificateEnv !== undefined) {
    tls.ca = read(caCertificateEnv);
    if (tls.ca !== '') certificateOf(tls.ca, caCertificateEnv, problems);
  }
  if (clientCertificateEnv !== undefined && clientKeyEnv !== undefined) {
    tls.cert = read(clientCertificateEnv);
    tls.key = read(clientKeyEnv);
    const certificate = tls.cert === '' ? undefined : certificateOf(tls.cert, clientCertificateEnv, problems);
    if (certificate && tls.key !== '') {
      try {
        if (!certificate.checkPrivateKey(createPrivateKey(tls.key))) {
          problems.push(
            `${clientKeyEnv} is not the private key of the certificate in ${clientCertificateEnv}`,
          );
        }
      } catch {
        problems.push(`${clientKeyEnv} is not a PEM private key`);
      }
    }
  }
  return tls;
}

function certificateOf(pem: string, name: string, problems: string[]): X509Certificate | undefined {
  try {
    const certificate = new X509Certificate(pem);
    if (Date.parse(certificate.validTo) < Date.now()) {
      problems.push(`the certificate in ${name} expired on ${certificate.validTo}`);
    }
    return certificate;
  } catch {
    problems.push(`${name} is not a PEM certificate`);
    return undefined;
  }
}
