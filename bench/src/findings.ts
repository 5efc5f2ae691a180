/**
 * @module
 * What profiling found behind a figure, by check id: for a miss, the reason and what was done (before /
 * after) or precisely what remains; for a met target that needed work, the before / after. The report
 * prints each under its figure. Figures quoted here were measured on the 2-core bench machine with the
 * commands in bench/README.md (“Measuring a proposed change”).
 */

const BFF_CATALOG = [
  'Found with `BENCH_PROFILE_DIR=/tmp/prof npx -y pnpm@12.21.0 bench --only bff` (a CPU profile of the BFF',
  'per route; `tsx bench/src/profile-summary.ts <file>`) and by attribution (bench/README.md: one middleware',
  'removed at a time, µs of server CPU per request). **Done** in this issue, requests per CPU-second from',
  'the first report to this one: plans 2,344 → 5,700–6,300 (≈ 430 → 160–175 µs a request), destinations',
  '1,939 → 4,000–4,400: each view’s list encoded once per snapshot and locale (was 26 % of a destinations',
  'read); the body limit only where a body',
  'can come (it built a web `Request` for every GET); a verified session token remembered by its exact text',
  '(its base64url, JSON, HMAC and schema check were 39 % of a plans read); the headers every answer carries',
  '(security headers, request id, CORS) gathered as one plain object before the route and written once',
  '(`packages/bff/src/http/answer.ts`; set one by one on `Headers` after the route they cost ≈ 55 µs); the',
  'ETag, origin decisions and valid catalog queries computed once; access-log lines written once per tick.',
  '**What remains**, attributed on a plans read of ≈ 160 µs against ≈ 49 µs for the bare route: the',
  'request context ≈ 45 µs (its AsyncLocalStorage scope, which on Node 20 puts a hook on every promise,',
  '≈ 16 µs; the access-log line and request id the rest), the session check ≈ 14 µs (rate-limit counter,',
  'origin binding), client address, body limit, CORS and answer headers ≈ 12 µs together, and ≈ 35 µs in',
  'the route and the framework beyond the bare route (locale, catalog lookup, the answer’s `meta`, two',
  'mounted sub-apps, 18 headers written instead of 2). The headers alone are measured beside the limit',
  '(“bare Hono, same bytes and headers”: the bare route writing every header of the BFF’s answer): they',
  'take the bare route to 59–85 % of itself, so the BFF’s own work is the larger part of the gap (BFF /',
  'bare with headers: 25–48 % on the catalog routes over four runs). In-process (`app.fetch`, no socket, one',
  'request after another) a plans read is ≈ 40 µs of BFF against ≈ 6 µs bare, spread over the request',
  'context, the answer’s `meta` and body, the access-log line, the session check, promise hooks and GC,',
  'none above ≈ 3 µs; a `strace -c` of both servers under load shows the same system calls per request',
  '(one `read`, one `writev`). 80 % of bare leaves ≈ 12 µs for all of that: no',
  'session-checked, CORS-answering, access-logged route on Node reaches it, so the gap is the price of',
  'those checks. What a traveller sees is the latency: the probe’s p50 is within 0.1–0.15 ms of the bare',
  'route and no slower than the upstream’s own answer. Next, by gain: drop AsyncLocalStorage for an',
  'explicit request scope passed to the upstream client (≈ 10 %: 9–15 µs of ≈ 130 µs a plans read over',
  'HTTP, A/B three times), or wait for Node 22’s',
  'AsyncContextFrame, which makes it nearly free.',
].join(' ');

/** Findings by check id (see the `check()` calls in each section). */
export const FINDINGS: Record<string, string> = {
  'funding.hold.redis.p50': [
    'The hold reads the whole reservation ledger of the account and writes it back by compare-and-set, so its',
    'cost grows with the checkouts open at once: JSON parsing, validation and writing are about 1 µs a hold',
    '(measured in-process, 330 holds: parse 113 µs, validation 60 µs, write 85 µs), plus the two Redis round',
    'trips. A shop with thousands of checkouts awaiting payment at the same time would want the ledger split',
    'per hold with a running total; at the sizes measured here the whole-record form keeps one atomic step.',
  ].join(' '),
  'bff.destinations.rps-ratio': BFF_CATALOG,
  'bff.plans.rps-ratio': 'Same causes and same work as `GET /v1/destinations` above.',
  'bff.sessions.rps-ratio': [
    'The same middleware as the catalog routes, plus the session’s own work: the JSON body read and parsed,',
    'the per-IP rate-limit counter, origin matching, an HS256-signed token with a random id and the brand',
    'lookup. Done, from the first report: 1,702 → 4,300–4,700 req/s per CPU-second (≈ 230 µs a request',
    'against ≈ 48 µs bare): the body limit no longer builds a web `Request`, and the header and log work above.',
    'Remains: what the catalog routes keep, and the token’s HMAC and the JSON body (≈ 25 µs together).',
  ].join(' '),
  'lighthouse.performance': [
    'Before: 91 (median of 3; 87–98), TBT 157–482 ms, CLS 0.06 on a phone and 0.19 on a desktop. Two causes,',
    'both fixed. The widget’s start-up work (see “Widget on a page”). And the demo page moving under the',
    'reader: its partner switcher and mode hint were written by its script, so the stage below them moved',
    'when it ran; `demo/vite.config.ts` now writes both into the built HTML from the same table the script',
    'uses (CLS 0.06 → 0). One run’s score still follows the machine’s load (Lighthouse scales the tasks it',
    'observed), hence the median of three.',
  ].join(' '),
  'page.usable': [
    'Before: 1,626 ms (median), the list’s first layout one 240–570 ms task at 4×. Profiled with',
    '`BENCH_PROFILE_DIR=/tmp/prof npx -y pnpm@12.21.0 bench --only page` (the page’s CPU profile per load):',
    'the destinations step rendered every destination at once (8 popular + 6 regions + ~249 countries ≈ 263',
    'buttons with emoji flags), and its first prices and sort made the page’s first `Intl.NumberFormat` and',
    '`Intl.Collator`. Done: the first loaded frame draws the popular destinations only, regions and countries',
    'follow 8 per task, off-screen ones skip style and layout (`content-visibility: auto`); the BFF sends',
    'the from-prices formatted and the list sorted in the locale (see “longest task”).',
  ].join(' '),
  'page.long-tasks': [
    'Before: 430 ms (worst load). Causes found in the page’s CPU profiles, each fixed: (1) the list drawn in',
    'one task (240–570 ms), now slices (see “usable”); (2) Chromium’s first `new Intl.NumberFormat` in a page',
    'loads its number-formatting data, 70–190 ms at 4× measured alone in a blank page (the first',
    '`Intl.Collator` 40–50 ms): the first screen now needs neither — the BFF sends each destination’s',
    'from-price formatted in the locale (`fromPriceLabel`) and the list already in the locale’s order, and',
    'the translator writes counts below 1,000 without `Intl` (what `Intl` writes for them in all five',
    'languages, held by a test); (3) the stylesheet parsed and the app drawn in one 60 ms task, now two.',
    '(4) The harness itself: Playwright’s `waitForFunction` injected Playwright’s scripts into the page, a',
    '45–90 ms `EvaluateScript` task at 4× (found in Chromium traces of a load) that the observer counted',
    'against the widget; the page is now read through CDP’s `Runtime.evaluate`. (5) Slices of 16 still made',
    '50–95 ms tasks after the list appeared (each slice lays the grid out again), now 8. **What remains**',
    '(traced), seen while the machine’s neighbours were busy (none of 5 loads had a long task in a run that',
    'started at load average 0.4; runs near 2 had): one or two tasks of 50–80 ms before the list appears —',
    'the module’s start (define, upgrade, `connectedCallback`, the app chunk’s fetch begun) with the page’s',
    '`DOMContentLoaded`, the app chunk’s evaluation and first draw, or the first layout and paint with the',
    'widget’s frame — and in some loads a slice after it (50–75 ms). Each is below 20 ms on an unthrottled',
    'core.',
  ].join(' '),
};
