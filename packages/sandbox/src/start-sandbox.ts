/**
 * @module
 * Starts a real sandbox over HTTP on 127.0.0.1 (port 0 by default: a free port) for other packages' tests,
 * with a typed control client bound to it. With `tls` it listens over HTTPS and can require a client
 * certificate (mTLS) or an address range (CIDR) the way keys restricted by them are refused.
 */

import type { IncomingMessage, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, type Sandbox } from './app';
import { type ControlClient, createControlClient } from './control-client';
import { type ListenerAccessOptions, listenerAccess } from './http/listener-access';
import { resolveSandboxOptions, type SandboxOptionsInput } from './options';

/** An HTTPS listener: the server's identity (PEM) and, for mTLS, the CA whose client certificates it trusts. */
export interface SandboxTlsOptions {
  key: string;
  cert: string;
  /** The CA of client certificates; with it the server asks every client for a certificate. */
  clientCa?: string;
}

/** Options of {@link startSandbox}: the sandbox's options plus where and how to listen. */
export type StartSandboxOptions = SandboxOptionsInput & {
  port?: number;
  hostname?: string;
  /** Listen over HTTPS (the URL is then `https://…`). */
  tls?: SandboxTlsOptions;
  /** Refuse requests without a trusted client certificate or from outside an address range. */
  access?: ListenerAccessOptions;
};

/** A running sandbox. */
export interface RunningSandbox extends Sandbox {
  /** Base URL without a trailing slash (`http://127.0.0.1:54321`). */
  url: string;
  port: number;
  /** The control API, authenticated with this sandbox's control secret. */
  control: ControlClient;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

/**
 * Starts a sandbox on a free port.
 *
 * @example
 * const sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
 * afterAll(() => sandbox.close());
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, hostname = '127.0.0.1', tls, access, ...rest } = options;
  const resolved = resolveSandboxOptions(rest);
  const sandbox = createSandbox(resolved);
  const refuse = access ? listenerAccess(access) : undefined;
  const fetch: typeof sandbox.app.fetch = (request, env, context) => {
    const incoming = incomingOf(env);
    return (incoming && refuse?.(incoming)) || sandbox.app.fetch(request, env, context);
  };
  const server = await new Promise<Server>((resolve, reject) => {
    const listen = { fetch, port, hostname };
    const started = (
      tls
        ? serve(
            {
              ...listen,
              createServer: createHttpsServer,
              serverOptions: {
                key: tls.key,
                cert: tls.cert,
                ...(tls.clientCa
                  ? // Asked, not enforced in the handshake: the refusal is the contract's envelope, as upstream.
                    { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false }
                  : {}),
              },
            },
            () => resolve(started as Server),
          )
        : serve(listen, () => resolve(started as Server))
    ) as Server;
    started.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const url = `${tls ? 'https' : 'http'}://${hostname}:${address.port}`;
  return {
    ...sandbox,
    url,
    port: address.port,
    control: createControlClient({ baseUrl: url, secret: resolved.controlSecret }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The Node request behind a Hono request (`@hono/node-server` passes it as `env.incoming`). */
function incomingOf(env: unknown): IncomingMessage | undefined {
  return (env as { incoming?: IncomingMessage } | undefined)?.incoming;
}
