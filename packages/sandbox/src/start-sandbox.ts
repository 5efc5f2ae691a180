/**
 * @module
 * Starts a real sandbox over HTTP on 127.0.0.1 (port 0 by default: a free port) for other packages' tests,
 * with a typed control client bound to it.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, type Sandbox } from './app';
import { type ControlClient, createControlClient } from './control-client';
import { resolveSandboxOptions, type SandboxOptionsInput } from './options';

/** Options of {@link startSandbox}: the sandbox's options plus where to listen. */
export type StartSandboxOptions = SandboxOptionsInput & { port?: number; hostname?: string };

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
  const { port = 0, hostname = '127.0.0.1', ...rest } = options;
  const resolved = resolveSandboxOptions(rest);
  const sandbox = createSandbox(resolved);
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: sandbox.app.fetch, port, hostname }, () =>
      resolve(started as Server),
    ) as Server;
    started.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${hostname}:${address.port}`;
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
