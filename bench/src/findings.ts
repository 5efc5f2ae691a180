/**
 * @module
 * What profiling found behind a figure, by check id: for a miss, the reason and what was done (before /
 * after) or precisely what remains; for a met target that needed work, the before / after. The report
 * prints each under its figure. Figures quoted here were measured on the 2-core bench machine with the
 * commands in bench/README.md (“Measuring a proposed change”); proposals live in `bench/proposals/`.
 */

const BFF_CATALOG = [
  'Profiled with `BENCH_PROFILE_DIR=/tmp/prof npx -y pnpm@12.21.0 bench --only bff` (a CPU profile of the BFF',
  'process during the route’s runs; `tsx bench/src/profile-summary.ts <file>` lists the hot functions). Three',
  'causes, in order of cost. (1) Every read serialized the whole view again (`c.json` →',
  '`JSON.stringify` of ~250 destinations with their search terms: 26 % of the BFF’s CPU on',
  '`GET /v1/destinations`). **Done** in this issue: `packages/bff/src/routes/catalog.ts` keeps each view’s',
  'list as bytes encoded once per snapshot and locale and appends only the request’s `meta`',
  '(destinations 1,110 → 2,355 req/s per CPU-second, plans 3,137 → 3,282, measured with (2) applied).',
  '(2) Hono’s `bodyLimit`, mounted on `*` in `packages/bff/src/app.ts`, reads `c.req.raw.body`; under',
  '`@hono/node-server` that builds a whole web `Request` (ReadableStream, AbortController, undici headers) for',
  'every request, GETs included, and gives up the server’s fast body path — 13 % of the BFF’s CPU in the',
  'sessions profile. **Proposed, not applied** (the file is being changed by the BFF’s owner):',
  '`bench/proposals/bff-request-body-limit.diff` skips bodiless methods and checks a declared',
  '`Content-Length` without touching the stream, falling back to `bodyLimit` for chunked bodies',
  '(destinations 644 → 1,110, plans 2,342 → 3,137, sessions 1,848 → 3,148 req/s per CPU-second; the BFF’s',
  'tests pass with it in a copy, all but one that reads the repo’s docs/ folder from outside). (3) **What remains** is the per-request cost of the middleware every widget',
  'call passes — about 300 µs of CPU for `GET …/plans` with (1) and (2) against about 50 µs for the bare',
  'route. Measured by removing one piece at a time from a copy (`BENCH_BFF_ENTRY`, plans, req/s per',
  'CPU-second, 3,276 with all of it): without the secure headers 3,793 (≈ 40 µs a request: twelve headers',
  'set one by one through undici `Headers` and their validation), without the JSON access-log line 3,769',
  '(≈ 40 µs), without the AsyncLocalStorage log scope 3,353 (≈ 7 µs). The remaining ≈ 170 µs is the',
  'session check (HMAC), CORS and origin normalisation, the per-session rate-limit counter, the locale',
  'query parsed by zod, a random request id and a SHA-256 of the ETag on every read (`etagOf` in',
  '`catalog-service.ts`, cacheable per snapshot and locale). Eighty percent of a route that does nothing',
  'leaves ≈ 12 µs for all of that, which a session-checked, CORS-answering, access-logged route on Node',
  'cannot meet; the gap is the price of those checks rather than waste. Next steps for the BFF owner, by',
  'gain: apply the body-limit diff; write the fixed security headers as one precomputed object (and',
  '`X-Request-Id` before `next()` instead of on `c.res.headers` afterwards); write access-log lines in',
  'batches per tick rather than one synchronous write each; cache `etagOf` per snapshot and locale.',
].join(' ');

/** Findings by check id (see the `check()` calls in each section). */
export const FINDINGS: Record<string, string> = {
  'bff.destinations.rps-ratio': BFF_CATALOG,
  'bff.plans.rps-ratio': 'Same causes and same work as `GET /v1/destinations` above.',
  'bff.sessions.rps-ratio': [
    'Same middleware cost as the catalog routes, plus the session’s own work: the JSON body read through a',
    'web `Request` because of `bodyLimit` (cause (2) above: 1,848 → 3,148 req/s per CPU-second with',
    '`bench/proposals/bff-request-body-limit.diff`, 20–76 % of bare depending on the round on this shared',
    'machine), the per-IP rate-limit counter, origin matching, the HMAC-signed token and its random id.',
    'Remains: the proposal, then the header work named above.',
  ].join(' '),
  'lighthouse.performance': [
    'One run’s score follows the machine’s load: 98–99 on quiet runs of this 2-core machine, 86–93 with a',
    'load average of 6–11 from other work (TBT 47 → 444 ms), because Lighthouse’s simulation scales the',
    'tasks it observed; hence the median of three runs. What it counts as blocking is the widget’s start-up',
    'work described under “Widget on a page”: the first-paint and translator proposals there remove most of',
    'it. Desktop (not a target) loses points on layout shift (CLS 0.19): the element that moves is the demo’s',
    '`div.stage`, the widget’s slot, growing when the list replaces the loading state; a `min-height` on it',
    '(`demo/src/showcase/showcase.css`, the demo’s owner) would keep the page still.',
  ].join(' '),
  'page.usable': [
    'Profiled with `BENCH_PROFILE_DIR=/tmp/prof npx -y pnpm@12.21.0 bench --only page` (the page’s CPU',
    'profile per load). The destinations step renders every destination at once (8 popular + 6 regions +',
    '~249 countries ≈ 263 buttons with emoji flags): the frame that first lays them out is one 240–570 ms',
    'task at 4×, and the list is usable at 1.1–1.3 s (median). **Proposed, not applied** (the widget’s owner',
    'is changing these files): `bench/proposals/widget-destinations-first-paint.diff` — `content-visibility:',
    'auto` on the grid items, and the country list rendered 24 first, then 40 per task — and',
    '`bench/proposals/widget-translator-once.diff` (below). Measured on a copy of the current widget',
    '(`BENCH_WIDGET_DIST`, same run, load average ≈ 7): usable 1,277 → 981 ms, longest task 572 → 127 ms;',
    'on a quieter run of the earlier widget: 1,095–1,252 → 796–997 ms, the list’s frame 53–80 ms.',
  ].join(' '),
  'page.long-tasks': [
    'Two causes. (1) The one-task render and layout of ~263 destination buttons (240–570 ms at 4×):',
    '`bench/proposals/widget-destinations-first-paint.diff` (see “usable”) brings the list’s frame to',
    '53–92 ms. (2) Chromium’s first `new Intl.NumberFormat` in a page loads its number-formatting data:',
    '88–125 ms at 4× measured alone in a blank page, whatever the locale (`Intl.PluralRules`, `Collator` and a',
    'currency format after it cost 1–12 ms). The widget’s translator makes one on every render of the shell',
    '(`createTranslator`, called from `app/widget-shell.tsx`); `bench/proposals/widget-translator-once.diff`',
    'makes one per locale and table, which leaves a single 100–137 ms task while the destinations request',
    'is in flight. With both: longest task 572 → 127 ms. **What remains**: that first-use cost cannot be split',
    'below 50 ms at 4× in this Chromium; it is paid once per page, and not at all on partner pages that',
    'already format a number. Avoiding it would mean formatting numbers without `Intl` on the first screen,',
    'which the widget’s i18n should not do; the other 50–90 ms tasks left are the app chunk’s evaluation and',
    'the first slices of the list.',
  ].join(' '),
};
