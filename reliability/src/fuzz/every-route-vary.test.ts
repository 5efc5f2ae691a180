/**
 * `Vary` on every route of the API's description (taken from `ROUTES`: a new route is checked too), each asked
 * genuinely — as a page of `shop` on its allowed origin, and as the partner's server — once compressed and once
 * plain (a create's second answer is its replay, built again for that request): an answer that names the
 * request's origin in `Access-Control-Allow-Origin` says `Vary: Origin`, compressed or not; a compressed one says
 * `Vary: Accept-Encoding`; no token is named twice; and compression loses no token of the plain answer's `Vary`. A shared cache that kept
 * one origin's answer for another, or one coding's for a client that cannot read it, would otherwise be told it
 * may.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../harness/bff-testing';
import { type RawAnswer, sendRaw } from '../harness/raw-http';
import { createFuzzWorld, type FuzzWorld } from './fuzz-world';
import { inputsOf } from './route-inputs';
import { genuineRequest } from './route-requests';

/** The answers of one route: asked compressed, then plain. */
interface Asked {
  compressed: RawAnswer;
  plain: RawAnswer;
}

let world: FuzzWorld;
const answers = new Map<string, Asked>();

beforeAll(async () => {
  world = await createFuzzWorld();
  const inputs = inputsOf(ROUTES);
  for (const route of ROUTES) {
    const input = inputs.get(route);
    if (input === undefined) throw new Error(`${route.id}: no genuine request`);
    const request = genuineRequest(route, input, world);
    const ask = (acceptEncoding: string) =>
      sendRaw(world.stack.server.port, {
        ...request,
        // The world trusts one proxy: it appended the address it saw.
        headers: [
          ...request.headers,
          ['Accept-Encoding', acceptEncoding],
          ['X-Forwarded-For', '198.51.100.35'],
        ],
      });
    const compressed = await ask('br, gzip');
    answers.set(route.id, { compressed, plain: await ask('identity') });
  }
}, 120_000);
afterAll(async () => {
  await world?.close();
});

/** The tokens of an answer's `Vary`, lower-cased. */
function varyOf(answer: RawAnswer): string[] {
  return (answer.headers.vary ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
}

/** What the answer's `Vary` fails to say of what the answer depends on, or says twice. */
function unsaid(answer: RawAnswer): string[] {
  const vary = varyOf(answer);
  const allowed = answer.headers['access-control-allow-origin'];
  const problems: string[] = [];
  if (allowed !== undefined && allowed !== '*' && !vary.includes('origin'))
    problems.push(`names the origin ${allowed} but its Vary (${answer.headers.vary ?? 'none'}) lacks Origin`);
  if (answer.headers['content-encoding'] !== undefined && !vary.includes('accept-encoding'))
    problems.push(`is ${answer.headers['content-encoding']} but its Vary lacks Accept-Encoding`);
  if (new Set(vary).size !== vary.length)
    problems.push(`names a token twice in Vary: ${answer.headers.vary}`);
  return problems;
}

describe('Vary on every route of the BFF, compressed or not', () => {
  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route.id]))('%s', (_name, id) => {
    const asked = answers.get(id);
    if (asked === undefined) throw new Error(`${id} was not asked`);
    const { compressed, plain } = asked;
    expect({ compressed: unsaid(compressed), plain: unsaid(plain) }).toEqual({ compressed: [], plain: [] });
    if (compressed.status === plain.status) {
      const kept = varyOf(compressed);
      expect(varyOf(plain).filter((token) => !kept.includes(token))).toEqual([]);
    }
  });

  it('compressed answers that name the page origin (else the check above proves nothing)', () => {
    const compressedForAnOrigin = [...answers].filter(
      ([, { compressed }]) =>
        compressed.headers['content-encoding'] !== undefined &&
        (compressed.headers['access-control-allow-origin'] ?? '*') !== '*',
    );
    expect(compressedForAnOrigin.map(([id]) => id)).toEqual(
      expect.arrayContaining(['listDestinations', 'listPlans']),
    );
  });
});
