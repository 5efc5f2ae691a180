/**
 * @module
 * How the store opens each connection to a cluster node over TLS: as ioredis does, plus an error listener that
 * stays for the socket's life. ioredis listens once for an error on each socket; a TLS socket refused (a
 * certificate the BFF cannot verify) may report a second one — seen on a busy machine, the server's alert read
 * after the refusal — and an error nobody listens for ends the process. The first error still reaches ioredis.
 */
import { connect, type TLSSocket } from 'node:tls';
import { AbstractConnector, type RedisOptions } from 'ioredis';

/** ioredis's message for a connection closed before it was opened (its callers look for it). */
const CONNECTION_CLOSED = 'Connection is closed.';

/** An ioredis `Connector` for one node over TLS (`host`, `port` and `tls` of the node's options). */
export class TlsNodeConnector extends AbstractConnector {
  private readonly node: RedisOptions;
  private readonly onError: ((error: Error) => void) | undefined;

  /**
   * ioredis hands every connector the node's whole options (typed `unknown` by its constructor type); `onError`
   * hears every error of the node's sockets (ioredis itself reports a failed handshake as a closed connection).
   */
  constructor(node: unknown, onError?: (error: Error) => void) {
    const options = node as RedisOptions;
    super(options.disconnectTimeout ?? 2_000);
    this.node = options;
    this.onError = onError;
  }

  connect(): Promise<TLSSocket> {
    this.connecting = true;
    return new Promise((resolve, reject) => {
      // On the next tick, as ioredis does: a disconnect asked meanwhile wins.
      process.nextTick(() => {
        if (!this.connecting) {
          reject(new Error(CONNECTION_CLOSED));
          return;
        }
        let socket: TLSSocket;
        try {
          socket = connect({ host: this.node.host, port: this.node.port, ...this.node.tls });
        } catch (error) {
          reject(error);
          return;
        }
        // Kept for ioredis, which reads it when the socket is already gone by the time it looks.
        socket.on('error', (error) => {
          this.firstError ??= error;
          this.onError?.(error);
        });
        this.stream = socket;
        resolve(socket);
      });
    });
  }
}

/** A {@link TlsNodeConnector} class whose sockets' errors `onError` hears. */
export function tlsNodeConnector(onError: (error: Error) => void): typeof TlsNodeConnector {
  return class ObservedTlsNodeConnector extends TlsNodeConnector {
    constructor(node: unknown) {
      super(node, onError);
    }
  };
}
