/**
 * @module
 * The Hono environment of the sandbox app: Node bindings (absent under `app.request()`), the request id,
 * the authenticated key and a latency a fault rule asks the idempotent section to wait.
 */
import type { KeyScope } from '@esim-embed/shared';
import type { HttpBindings } from '@hono/node-server';
import type { AccountState, EnvironmentState } from '../state/environment-state';
import type { KeyState } from '../state/sandbox-state';

/** Who is calling: the key, its account and the environment whose state it sees. */
export interface AuthContext {
  key: KeyState;
  env: EnvironmentState;
  account: AccountState;
  scopes: ReadonlySet<KeyScope>;
}

/** Hono generics of the sandbox app. */
export interface SandboxEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    auth: AuthContext;
    /** Set by a `latency` fault on a request with an `Idempotency-Key`: waited inside the claim. */
    faultLatencyMs: number | undefined;
  };
}
