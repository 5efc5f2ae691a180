/**
 * @module
 * The properties every route of the BFF keeps under generated requests, checked one request at a time over a
 * raw socket: no 5xx and no hang; every refusal is the error envelope with a code the API's description lists for
 * the route (`routeErrorCodes`); no stack trace and
 * no internal path in any body; a success on the route's own method and real path is its own answer; a refused
 * request stores nothing (the store's entries and work queues are the same after it, counters apart; a create's
 * final refusal may be kept under its own Idempotency-Key for its replays) and sends no webhook; no
 * request pollutes `Object.prototype`. Failures are counted, not stopped at, so that one run reports them all
 * with the seed that reproduces them.
 */
import { ApiErrorEnvelopeSchema, PARTNER_SECRET_HEADER, routeErrorCodes } from '@esim-embed/shared';
import fc from 'fast-check';
import { verdict } from '../bad-input/answer-verdict';
import {
  call,
  PARTNER_SECRET,
  type RouteSpec,
  type StoreSnapshot,
  snapshotChanges,
} from '../harness/bff-testing';
import { type RawAnswer, sendRaw } from '../harness/raw-http';
import type { FuzzWorld } from './fuzz-world';
import type { RouteInput } from './route-inputs';
import { type FuzzRequest, requestsTo } from './route-requests';

/** A file path of the machine or a package's inside: what an error must never show. */
const INTERNAL_PATH =
  /(?:^|[\s"'(])\/(?:home|root|usr|opt|srv|tmp|var|work|app)\/[\w.@-]+\/|node_modules\/|file:\/\/\/|\bsrc\/[\w/-]+\.[cm]?[jt]s\b|[A-Z]:\\\\/;

/**
 * Refusals of a request as sent (its shape, a credential): the create did nothing, so not even its
 * Idempotency-Key may be kept.
 */
const REFUSED_AS_SENT = [
  'validation_failed',
  'unsupported_media_type',
  'payload_too_large',
  'widget_session_invalid',
];

/** What one route's run found. */
export interface RouteTally {
  route: RouteSpec;
  cases: number;
  /** Answers by status. */
  statuses: Map<number, number>;
  /** Refusals by error code. */
  codes: Map<string, number>;
  /** Cases that broke a property. */
  failureCount: number;
  /** The first failures (request and what was wrong). */
  failures: string[];
  /** Refused requests that were checked for stored state and webhooks. */
  refusedChecked: number;
}

export interface FuzzRunOptions {
  numRuns: number;
  seed: number;
  /** How many failures to keep the text of. Default 10. */
  keepFailures?: number;
}

/** Each request comes from an address of its own (behind the world's one trusted proxy). */
let clients = 0;
function nextAddress(): string {
  clients += 1;
  return `198.18.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`;
}

/**
 * After a success: wait until the store has had no write for `quietMs` (background work the success started), and
 * catch the world's checkouts up with the upstream as the background watch would (their owner reads them until
 * their status holds), so that a later refusal's changes are its own, not a status mirror catching up. The reads
 * themselves rewrite their checkouts' records (each read is a sync with the upstream: `statusCacheMs` is 0), so
 * those records are left out of the quiet. At most 3 s.
 */
async function settle(world: FuzzWorld, quietMs = 15): Promise<void> {
  const watched = [world.waiting, world.waitingToCancel];
  const reread = new Set(watched.map((checkout) => `checkout:${checkout.id}`));
  const deadline = Date.now() + 3_000;
  let statuses = '';
  while (Date.now() < deadline) {
    const mark = world.store.journal.length;
    const answers = [];
    for (const checkout of watched) {
      answers.push(
        await call(world.stack.server.url, `/v1/partner/checkouts/${checkout.id}`, {
          headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'X-Forwarded-For': nextAddress() },
        }),
      );
    }
    const now = answers.map((answer) => String(answer.body?.data?.status)).join();
    // The first round only reads the statuses the next one compares: its quiet would decide nothing.
    if (statuses === '') {
      statuses = now;
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    // Counters count every request (the reads above too): only the other writes tell work going on.
    const busy = world.store.journal
      .slice(mark)
      .some((write) => write.applied && write.op !== 'increment' && !reread.has(write.key));
    if (!busy && now === statuses) return;
    statuses = now;
  }
}

function describeRequest(request: FuzzRequest): string {
  const headers = request.headers
    .map(
      ([name, value]) => `${name}: ${value.length > 40 ? `${value.slice(0, 40)}…(${value.length})` : value}`,
    )
    .join('; ');
  const body =
    request.body === undefined
      ? 'no body'
      : request.body.byteLength > 120
        ? `${request.body.byteLength} bytes`
        : JSON.stringify(request.body.toString('latin1'));
  return `${request.method} ${request.target.slice(0, 200)} [${headers}] ${body}`;
}

/**
 * True when `change` is the one trace a refusal may leave: a create's final refusal kept under its own
 * Idempotency-Key for its replays (a record `done` with the refusal's status, never one refused as sent).
 */
function keptRefusal(change: string, answer: RawAnswer, after: StoreSnapshot): boolean {
  const key = /^(?:added|changed) (idempotency:.+)$/.exec(change)?.[1];
  if (key === undefined) return false;
  const entry = after.get(key);
  if (entry === undefined) return false;
  // Listed as `v<version> <value>`.
  const record = JSON.parse(entry.slice(entry.indexOf(' ') + 1)) as { state?: string; status?: number };
  const code = (answer.json as { error?: { code?: string } } | undefined)?.error?.code;
  return record.state === 'done' && record.status === answer.status && !REFUSED_AS_SENT.includes(code ?? '');
}

/** What is wrong with one answer beyond the verdict: internal paths, the error code. */
function leaks(answer: RawAnswer): string | undefined {
  const type = answer.headers['content-type'] ?? '';
  if (/javascript|image\//.test(type)) return undefined;
  const match = INTERNAL_PATH.exec(answer.text);
  return match === null ? undefined : `an internal path in the body: …${match[0]}…`;
}

/** Fuzz one route; resolves with its tally (never rejects on a broken property). */
export async function fuzzRoute(
  world: FuzzWorld,
  route: RouteSpec,
  input: RouteInput,
  options: FuzzRunOptions,
): Promise<RouteTally> {
  const tally: RouteTally = {
    route,
    cases: 0,
    statuses: new Map(),
    codes: new Map(),
    failureCount: 0,
    failures: [],
    refusedChecked: 0,
  };
  const keep = options.keepFailures ?? 10;
  const { store, receiver } = world;
  const sender = world.stack.bff.webhookSender;
  const fail = (request: FuzzRequest, answer: RawAnswer | undefined, problem: string) => {
    tally.failureCount += 1;
    if (tally.failures.length < keep)
      tally.failures.push(`${describeRequest(request)} → ${answer?.status ?? 'no answer'}: ${problem}`);
  };
  const property = fc.asyncProperty(requestsTo(route, input, world), async (request) => {
    await sender.deliverDue();
    const before = await store.snapshot();
    const mark = store.journal.length;
    const heard = receiver.received.length;
    let answer: RawAnswer;
    try {
      answer = await sendRaw(world.stack.server.port, {
        method: request.method,
        target: request.target,
        // The proxy appends the address it saw last, after any the request brought.
        headers: [...request.headers, ['X-Forwarded-For', nextAddress()]],
        body: request.body,
      });
    } catch (error) {
      tally.cases += 1;
      fail(request, undefined, String(error));
      return true;
    }
    tally.cases += 1;
    tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
    const problems: string[] = [];
    const answerProblem = verdict(answer, {
      envelope: ApiErrorEnvelopeSchema,
      success: request.genuineRoute && route.contentType === undefined ? route.response : undefined,
      method: request.method,
    });
    if (answerProblem !== undefined) problems.push(answerProblem);
    const leak = leaks(answer);
    if (leak !== undefined) problems.push(leak);
    if (answer.status >= 400 && answer.status < 500) {
      tally.refusedChecked += 1;
      const code = (answer.json as { error?: { code?: string } } | undefined)?.error?.code ?? '?';
      tally.codes.set(code, (tally.codes.get(code) ?? 0) + 1);
      if (!routeErrorCodes(route).includes(code as never))
        problems.push(`refused with ${code}, which the API's description does not list for ${route.id}`);
      const after = await store.snapshot();
      const stored = snapshotChanges(before, after).filter((change) => !keptRefusal(change, answer, after));
      if (stored.length > 0) {
        problems.push(`refused (${code}) yet stored: ${stored.slice(0, 6).join(', ')}`);
      }
      await sender.deliverDue();
      const sent = receiver.received.slice(heard).map((delivery) => {
        const event = JSON.parse(delivery.body) as { type?: string };
        return event.type ?? '?';
      });
      if (sent.length > 0) problems.push(`refused (${code}) yet sent webhooks: ${sent.join(', ')}`);
    } else if (
      request.method === 'POST' ||
      store.journal.slice(mark).some((write) => write.op !== 'increment')
    ) {
      await settle(world);
    }
    if (Object.hasOwn(Object.prototype, 'polluted')) {
      problems.push('Object.prototype was polluted');
      Reflect.deleteProperty(Object.prototype, 'polluted');
    }
    for (const problem of problems) fail(request, answer, problem);
    return true;
  });
  await fc.check(property, { numRuns: options.numRuns, seed: options.seed });
  return tally;
}

/** The status classes of a tally (`2xx`, `4xx`, …) with their counts. */
export function statusClasses(tally: RouteTally): Map<string, number> {
  const classes = new Map<string, number>();
  for (const [status, count] of tally.statuses) {
    const name = `${Math.floor(status / 100)}xx`;
    classes.set(name, (classes.get(name) ?? 0) + count);
  }
  return classes;
}
