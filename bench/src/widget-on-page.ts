/**
 * @module
 * The widget on a page: a page served by the BFF embeds `<esim-widget>` by script tag; Chromium loads it
 * with 4× CPU throttling (CDP `Emulation.setCPUThrottlingRate`), a fresh profile each time. Measured from
 * the moment `widget.js` is requested: the destinations list in the DOM, painted (the next frame), usable
 * (the main thread free again after that frame); every long task (PerformanceObserver `longtask`) begun
 * once the script had arrived — the page holds nothing else, so they are the widget's — and, from a Chromium
 * trace of the load, the CPU time of each of those tasks; and the JavaScript fetched before the list was
 * usable. Then the slow phone: the same page with the network throttled as well
 * (CDP `Network.emulateNetworkConditions`: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up — Lighthouse's
 * mobile preset), measured from navigation, with what was fetched when (the waterfall).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CDPSession, chromium } from 'playwright-core';
import { BENCH_ENV, BENCH_WIDGET, benchConfig } from './bench-config';
import { CHROMIUM_ARGS, startPageStack } from './page-stack';
import {
  DETAILED_TRACE_CATEGORIES,
  type PageTask,
  pageTasks,
  TASK_TRACE_CATEGORIES,
  traceEvents,
} from './page-trace';
import { check, fmt, type Section, table } from './report';
import type { FileWeight } from './widget-weight';

/** What one page load measured (ms since navigation start unless said otherwise). */
interface PageLoad {
  scriptStart: number;
  /** When `widget.js` had arrived: no task begun before runs any of the widget's code. */
  scriptEnd: number;
  listInDom: number;
  painted: number;
  usable: number;
  longTasks: { start: number; duration: number }[];
  scripts: { name: string; transferSize: number; responseEnd: number }[];
  /** Every resource the page fetched: what waits on what. */
  requests: { name: string; startTime: number; responseEnd: number; transferSize: number }[];
  /** The main thread's tasks from the trace, with their CPU time. */
  tasks: PageTask[];
}

/** A throttled network, as CDP's `Network.emulateNetworkConditions` takes it (bytes per second). */
interface NetworkConditions {
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

/** The slow phone's network: Lighthouse's mobile preset (slow 4G), with its 4× CPU. */
const SLOW_PHONE_NETWORK: NetworkConditions = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/** Page loads measured; the median counts, the worst is shown. */
const LOADS = 5;
const CPU_SLOWDOWN = 4;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>A partner page</title>
  </head>
  <body>
    <main>
      <h1>Travel eSIMs</h1>
      <esim-widget widget-id="${BENCH_WIDGET}" locale="en"></esim-widget>
    </main>
    <script type="module" src="/widget.js"></script>
  </body>
</html>
`;

/**
 * Runs in the page before anything else: records long tasks, and watches every frame for the first
 * destination button inside the widget's shadow root.
 */
const OBSERVER = `(() => {
  const record = (window.__bench = { longTasks: [], listInDom: 0, painted: 0, usable: 0 });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const watch = () => {
    const button = document.querySelector('esim-widget')?.shadowRoot?.querySelector('[part~="destination"]');
    if (button && !button.disabled) {
      record.listInDom = performance.now();
      requestAnimationFrame(() => {
        record.painted = performance.now();
        setTimeout(() => { record.usable = performance.now(); }, 0);
      });
      return;
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
})();`;

/** `BENCH_PROFILE_DIR=/tmp/prof` writes the page's CPU profile of each load there (`page-<n>.cpuprofile`). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/**
 * `BENCH_TRACE_DIR=/tmp/trace` writes the Chromium trace of each load there (`page-<n>.json`), with every event
 * of the timeline inside each task (script, style, layout, paint), which a CPU profile does not show;
 * `tsx src/trace-summary.ts <file>` lists the long tasks with what ran in them. Without it the bench traces
 * only the tasks, for their CPU time.
 */
const TRACE_DIR = process.env.BENCH_TRACE_DIR;

/** The mark the page makes as it is read: where its clock is in the trace. */
const COLLECT_MARK = 'esim-bench-collect';

/** Runs in the page at the end of a load: what the observer recorded, and the scripts it fetched. */
const COLLECT = `(() => {
  const resources = performance.getEntriesByType('resource');
  const script = resources.find((entry) => new URL(entry.name).pathname === '/widget.js');
  return {
    ...window.__bench,
    scriptStart: script ? script.startTime : null,
    scriptEnd: script ? script.responseEnd : null,
    collectedAt: performance.mark('${COLLECT_MARK}').startTime,
    scripts: resources
      .filter((entry) => entry.name.endsWith('.js'))
      .map((entry) => ({ name: new URL(entry.name).pathname.slice(1), transferSize: entry.transferSize, responseEnd: entry.responseEnd })),
    requests: resources.map((entry) => ({ name: new URL(entry.name).pathname, startTime: entry.startTime, responseEnd: entry.responseEnd, transferSize: entry.transferSize })),
  };
})()`;

/**
 * The value of `expression` in the page, through CDP. Not Playwright's `evaluate` / `waitForFunction`: they
 * inject Playwright's own scripts into the page first, a long task that the long-task observer would count
 * against the widget.
 */
async function pageValue<T>(cdp: CDPSession, expression: string): Promise<T> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`evaluating in the page failed: ${exceptionDetails.text}`);
  return result.value as T;
}

async function loadOnce(
  browserPath: string,
  url: string,
  index: number,
  network?: NetworkConditions,
): Promise<PageLoad> {
  const browser = await chromium.launch({ executablePath: browserPath, args: CHROMIUM_ARGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    if (network) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network });
    }
    await page.addInitScript({ content: OBSERVER });
    const traceName = `${network ? 'slow-phone' : 'page'}-${index + 1}`;
    await browser.startTracing(page, {
      categories: TRACE_DIR ? DETAILED_TRACE_CATEGORIES : TASK_TRACE_CATEGORIES,
    });
    if (PROFILE_DIR) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.goto(url);
    const deadline = Date.now() + 30_000;
    while (!(await pageValue<boolean>(cdp, 'window.__bench.usable > 0'))) {
      if (Date.now() > deadline) throw new Error('the widget’s destinations were not usable within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Long tasks right after the list appeared belong to start-up too.
    await page.waitForTimeout(500);
    const { collectedAt, ...load } = await pageValue<
      Omit<PageLoad, 'scriptStart' | 'scriptEnd' | 'tasks'> & {
        scriptStart: number | null;
        scriptEnd: number | null;
        collectedAt: number;
      }
    >(cdp, COLLECT);
    if (PROFILE_DIR) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(PROFILE_DIR, `${traceName}.cpuprofile`), JSON.stringify(profile));
    }
    const trace = (await browser.stopTracing()).toString('utf8');
    if (TRACE_DIR) writeFileSync(join(TRACE_DIR, `${traceName}.json`), trace);
    if (load.scriptStart === null || load.scriptEnd === null)
      throw new Error('the page never requested /widget.js');
    const { scriptStart, scriptEnd } = load;
    // The same window as the long-task observer's: from the script's arrival to the collection.
    const mark = { name: COLLECT_MARK, atMs: collectedAt };
    const tasks = pageTasks(traceEvents(trace), mark, scriptEnd, collectedAt);
    return { ...load, scriptStart, scriptEnd, tasks };
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The widget-on-a-page section. */
export async function widgetOnPageSection(weights: FileWeight[]): Promise<Section> {
  const siteRoot = mkdtempSync(join(tmpdir(), 'esim-bench-page-'));
  if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true });
  writeFileSync(join(siteRoot, 'index.html'), PAGE);
  const stack = await startPageStack({ config: benchConfig, env: BENCH_ENV, siteRoot });
  const loads: PageLoad[] = [];
  const slowLoads: PageLoad[] = [];
  try {
    for (let i = 0; i < LOADS; i += 1) {
      console.log(`[bench] widget on a page: load ${i + 1} of ${LOADS}`);
      loads.push(await loadOnce(stack.chromium, `${stack.bff.info.url}/`, i));
    }
    for (let i = 0; i < LOADS; i += 1) {
      console.log(`[bench] widget on a slow phone: load ${i + 1} of ${LOADS}`);
      slowLoads.push(await loadOnce(stack.chromium, `${stack.bff.info.url}/`, i, SLOW_PHONE_NETWORK));
    }
  } finally {
    await stack.stop();
    rmSync(siteRoot, { recursive: true, force: true });
  }
  const since = (load: PageLoad, at: number) => at - load.scriptStart;
  // A task begun before the script had arrived ran none of its code: the page's own parse and first layout.
  const widgetTasks = (load: PageLoad) => load.longTasks.filter((task) => task.start >= load.scriptEnd);
  const usable = loads.map((load) => since(load, load.usable));
  const longest = loads.map((load) => Math.max(0, ...widgetTasks(load).map((task) => task.duration)));
  const busiest = (load: PageLoad) =>
    load.tasks.reduce<PageTask | null>((most, task) => (most && most.cpu >= task.cpu ? most : task), null);
  const longestCpu = loads.map((load) => busiest(load)?.cpu ?? 0);
  const cpuOf = (load: PageLoad, task: PageTask | null) =>
    task
      ? `+${Math.round(task.start - load.scriptStart)} / ${Math.round(task.wall)} / ${Math.round(task.cpu)}`
      : '—';
  const medianLoad = loads[usable.indexOf(median(usable))] ?? (loads[0] as PageLoad);
  const weightOf = new Map(weights.map((w) => [w.file, w]));
  const firstScreen = medianLoad.scripts.filter((script) => script.responseEnd <= medianLoad.usable);
  const slowUsable = slowLoads.map((load) => load.usable);
  const medianSlowLoad = slowLoads[slowUsable.indexOf(median(slowUsable))] ?? (slowLoads[0] as PageLoad);
  const sum = (key: 'raw' | 'gzip' | 'brotli') =>
    firstScreen.reduce((total, script) => total + (weightOf.get(script.name)?.[key] ?? 0), 0);
  return {
    title: 'Widget on a page',
    command: 'npx -y pnpm@12.21.0 bench --only page',
    lines: [
      `A page served by the BFF on loopback embeds the widget by script tag (\`<script type="module" src="/widget.js">\`).`,
      `Chromium (headless, the e2e suite's flags), a fresh profile per load, CPU throttled ${CPU_SLOWDOWN}× through CDP;`,
      `${LOADS} loads, the median counts. Times run from the request of \`widget.js\`: the first destination`,
      'button in the shadow root, the next frame (painted), then the first task after it (usable: the main',
      'thread answers input). Long tasks are those begun once the script had arrived (a task begun before runs',
      'none of its code: on this page, the page’s own parse and first layout). The same load is traced (Chromium',
      'trace, the main thread’s tasks): beside the wall times, of those tasks, the one that took the most CPU',
      'time of its thread — what it takes at 4× on a core of its own, where the wall time also counts the waits',
      'for a core that the machine’s other work caused (the throttled thread stays busy while it is held back).',
      '',
      ...table(
        [
          'load',
          'widget.js requested',
          'list in DOM',
          'painted',
          'usable',
          'long tasks (> 50 ms): start after the script / duration, ms',
          'most CPU: start / wall / CPU, ms',
        ],
        loads.map((load, index) => [
          String(index + 1),
          fmt.ms(load.scriptStart),
          `+${fmt.ms(since(load, load.listInDom))}`,
          `+${fmt.ms(since(load, load.painted))}`,
          `+${fmt.ms(since(load, load.usable))}`,
          widgetTasks(load)
            .map((task) => `+${Math.round(task.start - load.scriptStart)} / ${Math.round(task.duration)}`)
            .join(', ') || 'none',
          cpuOf(load, busiest(load)),
        ]),
      ),
      `JavaScript fetched before the list was usable (median load): ${firstScreen.length} files, ${fmt.kb(sum('raw'))} raw,`,
      `${fmt.kb(sum('gzip'))} gzip, ${fmt.kb(sum('brotli'))} brotli — ${firstScreen.map((s) => `\`${s.name}\``).join(', ')}.`,
      '',
      `**The slow phone.** The same page, CPU ${CPU_SLOWDOWN}× and the network throttled through CDP as Lighthouse's mobile`,
      `preset does (${SLOW_PHONE_NETWORK.latency} ms round trip, 1.6 Mbit/s down, 750 kbit/s up); ${LOADS} loads, times from`,
      'navigation (the page itself is one of the round trips).',
      '',
      ...table(
        ['load', 'widget.js requested', 'list in DOM', 'usable'],
        slowLoads.map((load, index) => [
          String(index + 1),
          fmt.ms(load.scriptStart),
          fmt.ms(load.listInDom),
          fmt.ms(load.usable),
        ]),
      ),
      'What the median slow load fetched before the destinations were usable, in order (requested → answered, ms',
      'from navigation):',
      '',
      ...table(
        ['resource', 'requested', 'answered', 'transferred'],
        medianSlowLoad.requests
          .filter((request) => request.startTime <= medianSlowLoad.usable)
          .map((request) => [
            `\`${request.name}\``,
            fmt.ms(request.startTime),
            fmt.ms(request.responseEnd),
            fmt.kb(request.transferSize),
          ]),
      ),
      '',
    ],
    checks: [
      check(
        'page.usable',
        'destinations usable after script start (4× CPU, median)',
        median(usable),
        '<=',
        1000,
        fmt.ms,
      ),
      check(
        'page.long-tasks',
        'longest main-thread task caused by the widget at start-up (4× CPU, worst load)',
        Math.max(...longest),
        '<=',
        50,
        fmt.ms,
      ),
      check(
        'page.long-task-cpu',
        'CPU time of the busiest main-thread task at start-up, on a core of its own (4× CPU, worst load)',
        Math.max(...longestCpu),
        '<=',
        50,
        fmt.ms,
      ),
      check(
        'page.slow-phone',
        'destinations usable after navigation on a slow phone (4× CPU, slow 4G, median)',
        median(slowUsable),
        '<=',
        2000,
        fmt.ms,
      ),
    ],
  };
}
