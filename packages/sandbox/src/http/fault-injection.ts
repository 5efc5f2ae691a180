/**
 * @module
 * Fault injection for resilience tests: added latency, a 5xx answer, a dropped connection, or a request
 * that commits and then drops its connection. Off unless the sandbox was started with `faultInjection`;
 * rules are set per test through `PUT /__sandbox/faults`.
 */
import type { MiddlewareHandler } from 'hono';
import type { FaultRule } from '../control/control-schemas';
import type { SandboxState } from '../state/sandbox-state';
import type { SandboxEnv } from './sandbox-env';
import { SandboxError } from './sandbox-error';

/** Paths faults never touch: the control API and the brand assets. */
const EXEMPT = /^\/(?:__sandbox|assets)(?:\/|$)/;

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method !== method) return false;
  if (!rule.path) return true;
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}

/** Takes the first rule that matches the request, counting down its `times`. */
function takeRule(state: SandboxState, method: string, path: string): FaultRule | undefined {
  const index = state.faults.findIndex((rule) => matches(rule, method, path));
  const rule = state.faults[index];
  if (!rule) return undefined;
  if (rule.times !== null) {
    if (rule.times <= 1) state.faults.splice(index, 1);
    else rule.times -= 1;
  }
  return rule;
}

/**
 * Closes the client connection without an answer. Under `app.request()` there is no socket, so the
 * request fails with a 503 `internal` instead (documented).
 */
function dropConnection(bindings: SandboxEnv['Bindings'] | undefined): boolean {
  const socket = bindings?.incoming?.socket;
  if (!socket) return false;
  socket.destroy();
  return true;
}

/** The fault injection middleware (a no-op unless the sandbox allows faults). */
export function faultInjection(state: SandboxState): MiddlewareHandler<SandboxEnv> {
  return async function faultInjectionMiddleware(c, next) {
    if (!state.options.faultInjection || state.faults.length === 0 || EXEMPT.test(c.req.path)) return next();
    const rule = takeRule(state, c.req.method, c.req.path);
    if (!rule) return next();
    switch (rule.kind) {
      case 'latency':
        // A create waits inside its idempotency claim, so a concurrent retry sees the key in flight.
        if (c.req.header('Idempotency-Key')) c.set('faultLatencyMs', rule.latencyMs);
        else await new Promise((resolve) => setTimeout(resolve, rule.latencyMs));
        return next();
      case 'error':
        throw new SandboxError(rule.status === 429 ? 'rate_limited' : 'internal', {
          status: rule.status as 500,
          params: { reason: 'injected_fault' },
          retryAfterSeconds: rule.retryAfterSeconds ?? (rule.status === 503 ? 1 : undefined),
        });
      case 'drop':
        // The socket is gone: this empty answer is never written.
        if (dropConnection(c.env)) return c.body(null);
        throw new SandboxError('internal', { status: 503, params: { reason: 'injected_drop' } });
      case 'drop_after_commit':
        await next();
        if (dropConnection(c.env)) return;
        throw new SandboxError('internal', { status: 503, params: { reason: 'injected_drop_after_commit' } });
    }
  };
}
