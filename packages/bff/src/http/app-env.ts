/**
 * @module
 * The Hono environment of the BFF app: what middleware puts on the context for the handlers, and the types of
 * those values the `http/` files share (so that each of them imports this file, and it imports none of them).
 */

import type { IncomingMessage } from 'node:http';
import type { RouteSpec } from '@esim-embed/shared';
import type { ManageClaims } from '../security/manage-claims';
import type { SessionClaims } from '../security/session-token';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { EncodedJson } from './encoded-json';

/** Headers an answer carries: a name (in the case written here) and its value. */
export type HeaderRecord = Record<string, string>;

/** One app's way out: what its answers share (two apps in one process share nothing). */
export interface AnswerState {
  /** Check JSON answers against what their route promises (its `response` schema, its error codes). */
  readonly checkShapes: boolean;
  /** Compress answers worth it as the request accepts (`http/answer-compression.ts`). */
  readonly compress: boolean;
  /** Answers built by `answerBody`: they already carry the request's headers. */
  readonly complete: WeakSet<Response>;
  /** The body as written, of each answer `answerBody` compressed (see `plainBodyOf`). */
  readonly plain: WeakMap<Response, string | Uint8Array>;
  /** JSON encoded once per value (see `encodedOnce`). */
  readonly encoded: WeakMap<object, EncodedJson>;
}

/**
 * What keeps a recorded answer valid: `current()` still being the very object it was built from. An answer that
 * differs by request headers (a start names the page's origin) is kept per value of `variesOn` (lower-case
 * names), and per `variant` when it differs by what a header says rather than by its text (a session read is
 * the same for every session of one widget: `value` is this answer's widget, `of` reads a request's, undefined
 * when it has none); one that must count each reader (a start's limit per address) is served only when `admit`
 * lets it.
 */
export interface KeepWhile {
  builtFrom: object;
  current: () => object | undefined;
  variesOn?: readonly string[];
  variant?: { value: string; of: (request: IncomingMessage) => string | undefined };
  admit?: (request: IncomingMessage) => boolean;
}

/** Context variables set by the BFF's middleware. */
export interface AppVariables {
  /** Headers every answer of the request carries (see `http/answer.ts`). */
  answerHeaders: HeaderRecord;
  /** The app's way out: its answers' shared state (`http/answer.ts`). */
  answers: AnswerState;
  /** Set by a route whose 200 the answer cache may keep, and for how long (`http/answer-cache.ts`). */
  keepAnswer: KeepWhile;
  requestId: string;
  /** The described route the request is for, when there is one (`tagRoutes` in `routes/mount-routes.ts`). */
  route: RouteSpec;
  /** The client IP (socket or trusted `X-Forwarded-For`). */
  clientIp: string;
  /** The scheme the client used as a trusted proxy said it (`X-Forwarded-Proto`); undefined: the request URL's. */
  clientScheme: 'http' | 'https' | undefined;
  /**
   * The client address as the store's counters name it: its keyed digest (`security/keyed-digest.ts`) of the
   * address a limit counts (an IPv6 client by its /64), never the address itself.
   */
  countedAddress: string;
  /** Set by the session auth on session-authenticated routes (`routes/route-auth.ts`). */
  session: SessionClaims;
  /** The widget of the session (or of the session being created). */
  widget: WidgetRuntime;
  /** The page origin a session is being created for, as the widget allows it (`origin` auth). */
  origin: string;
  /** The verified manage token of the request (`session+manage` auth). */
  manage: ManageClaims;
  /** The widgets the request's partner secret opens (`partner` auth). */
  partnerWidgets: ReadonlyMap<string, WidgetRuntime>;
  /**
   * The id of what an idempotent create makes (the checkout id), chosen before any side effect and kept with
   * its key, so that a retry after a lost holder makes the same one (set by `http/idempotency.ts`).
   */
  idempotentResourceId: string;
  /**
   * Set by an idempotent route whose request changed nothing (a resend of a delivery still on its way): its
   * answer is not kept, so its key stores nothing (`http/idempotency.ts`).
   */
  changedNothing: boolean;
}

/** The BFF's Hono environment. */
export interface AppEnv {
  Variables: AppVariables;
}
