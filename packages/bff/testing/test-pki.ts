/**
 * @module
 * Test support: a throwaway PKI made with `openssl` at test time (never committed) — a CA, a server
 * certificate for 127.0.0.1 and a client certificate it signed, plus a second CA's client certificate the
 * server must not trust; and a Redis Cluster node's certificate, for 127.0.0.1 and good at both ends (nodes show it
 * to each other on the cluster bus). Used by the mTLS tests against the sandbox's HTTPS listener and the TLS cluster.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM texts of the test PKI. */
export interface TestPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A client certificate of another CA (the server does not trust it). */
  strangerCert: string;
  strangerKey: string;
  /** A certificate for 127.0.0.1 that serves and also identifies its holder as a client (a cluster node's). */
  nodeCert: string;
  nodeKey: string;
}

/** Makes a fresh PKI in a temporary directory, reads it and deletes the directory. */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'esim-pki-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  try {
    const authority = (name: string) =>
      openssl(
        'req',
        '-x509',
        ...key,
        '-keyout',
        path(`${name}.key`),
        '-out',
        path(`${name}.crt`),
        '-subj',
        `/CN=${name}`,
        '-days',
        '2',
      );
    const signed = (name: string, ca: string, extension: string) => {
      openssl(
        'req',
        '-new',
        ...key,
        '-keyout',
        path(`${name}.key`),
        '-out',
        path(`${name}.csr`),
        '-subj',
        `/CN=${name}`,
      );
      writeFileSync(path(`${name}.ext`), `${extension}\n`);
      openssl(
        'x509',
        '-req',
        '-in',
        path(`${name}.csr`),
        '-CA',
        path(`${ca}.crt`),
        '-CAkey',
        path(`${ca}.key`),
        '-CAcreateserial',
        '-out',
        path(`${name}.crt`),
        '-days',
        '2',
        '-extfile',
        path(`${name}.ext`),
      );
    };
    authority('test-ca');
    authority('stranger-ca');
    signed('server', 'test-ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth');
    signed('client', 'test-ca', 'extendedKeyUsage=clientAuth');
    signed('stranger', 'stranger-ca', 'extendedKeyUsage=clientAuth');
    signed('node', 'test-ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth');
    const read = (name: string) => readFileSync(path(name), 'utf8');
    return {
      caCert: read('test-ca.crt'),
      serverCert: read('server.crt'),
      serverKey: read('server.key'),
      clientCert: read('client.crt'),
      clientKey: read('client.key'),
      strangerCert: read('stranger.crt'),
      strangerKey: read('stranger.key'),
      nodeCert: read('node.crt'),
      nodeKey: read('node.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
