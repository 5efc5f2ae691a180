/**
 * @module
 * Lighthouse on the demo page: the built demo (`demo/dist`) served by a BFF with the built-in demo config
 * (as `pnpm start` serves it), audited by the `lighthouse` package in the system Chromium launched through
 * chrome-launcher with the e2e suite's flags. The default (mobile) config: simulated slow 4G and 4× CPU.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_SECRET_DEFAULTS, defaultConfig } from '@esim-embed/bff';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { CHROMIUM_ARGS, startPageStack } from './page-stack';
import { type Check, check, fmt, type Section, table } from './report';

/** The built demo site. */
export const DEMO_DIST = fileURLToPath(new URL('../../demo/dist/', import.meta.url));

/** Mobile runs (the median counts): on a shared 2-core machine one run's TBT swings with the neighbours. */
const MOBILE_RUNS = 3;

/** The scores and timings of one Lighthouse run. */
interface Audit {
  preset: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  tbtMs: number;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  /** Failed audits of accessibility and best practices, by title. */
  failures: string[];
  /** The elements Lighthouse names for the largest layout shifts, with their scores. */
  shifts: string[];
}

async function audit(chromePath: string, url: string, desktop: boolean): Promise<Audit> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new'],
  });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      },
      desktop ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    const score = (id: string) => (lhr.categories[id]?.score ?? Number.NaN) * 100;
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const failures = ['accessibility', 'best-practices'].flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${category}: ${lhr.audits[ref.id]?.title ?? ref.id}`),
    );
    const shiftItems =
      (lhr.audits['layout-shifts']?.details as { items?: unknown[] } | undefined)?.items ?? [];
    const shifts = shiftItems.slice(0, 3).map((item) => {
      const { node, score } = item as { node?: { selector?: string; snippet?: string }; score?: number };
      return `\`${node?.selector ?? node?.snippet ?? 'unknown'}\` (${fmt.plain(score ?? Number.NaN)})`;
    });
    return {
      shifts,
      preset: desktop ? 'desktop' : 'mobile (default)',
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      tbtMs: numeric('total-blocking-time'),
      fcpMs: numeric('first-contentful-paint'),
      lcpMs: numeric('largest-contentful-paint'),
      cls: numeric('cumulative-layout-shift'),
      failures,
    };
  } finally {
    chrome.kill();
  }
}

/** The Lighthouse section. */
export async function lighthouseSection(): Promise<Section> {
  if (!existsSync(`${DEMO_DIST}index.html`))
    throw new Error('demo/dist is missing: build @esim-embed/demo first');
  const stack = await startPageStack({
    config: defaultConfig,
    env: { ...DEMO_SECRET_DEFAULTS },
    siteRoot: DEMO_DIST,
  });
  const audits: Audit[] = [];
  try {
    const url = `${stack.bff.info.url}/`;
    for (let run = 1; run <= MOBILE_RUNS; run += 1) {
      console.log(`[bench] lighthouse: mobile, run ${run} of ${MOBILE_RUNS}`);
      audits.push({ ...(await audit(stack.chromium, url, false)), preset: `mobile (default), run ${run}` });
    }
    console.log('[bench] lighthouse: desktop');
    audits.push(await audit(stack.chromium, url, true));
  } finally {
    await stack.stop();
  }
  // The median run by performance score, as Lighthouse's own guidance for noisy machines suggests.
  const mobileRuns = audits.filter((a) => a.preset.startsWith('mobile'));
  const mobile = [...mobileRuns].sort((a, b) => a.performance - b.performance)[
    Math.floor(mobileRuns.length / 2)
  ] as Audit;
  const score = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '—');
  const checks: Check[] = [
    check(
      'lighthouse.performance',
      `Lighthouse performance, demo page (mobile, median of ${MOBILE_RUNS})`,
      mobile.performance,
      '>=',
      95,
      score,
    ),
    check(
      'lighthouse.accessibility',
      'Lighthouse accessibility, demo page (worst run)',
      Math.min(...audits.map((a) => a.accessibility)),
      '>=',
      100,
      score,
    ),
  ];
  const failed = [...new Set(audits.flatMap((a) => a.failures))];
  return {
    title: 'Lighthouse on the demo page',
    command: 'npx -y pnpm@12.21.0 bench --only lighthouse',
    lines: [
      'The demo showcase (`demo/dist`, built by the harness) served by a BFF with the built-in demo config,',
      'widget by script tag from the same BFF; Lighthouse 12 in the system Chromium. The mobile preset',
      `(Lighthouse’s default: simulated slow 4G, 4× CPU) holds the targets, median of ${MOBILE_RUNS} runs by`,
      'performance score (its simulation scales the tasks it observed, so a busy machine lowers one run’s',
      'score); one desktop run is shown beside them.',
      '',
      ...table(
        ['preset', 'performance', 'accessibility', 'best practices', 'TBT', 'FCP', 'LCP', 'CLS'],
        audits.map((a) => [
          a.preset,
          score(a.performance),
          score(a.accessibility),
          score(a.bestPractices),
          fmt.ms(a.tbtMs),
          fmt.ms(a.fcpMs),
          fmt.ms(a.lcpMs),
          fmt.plain(a.cls),
        ]),
      ),
      failed.length === 0
        ? 'No accessibility or best-practices audit failed.'
        : `Audits that failed: ${failed.map((f) => `${f}`).join('; ')}.`,
      '',
      ...audits
        .filter((a) => a.shifts.length > 0)
        .map((a) => `Largest layout shifts (${a.preset}): ${a.shifts.join(', ')}.`),
      '',
    ],
    checks,
  };
}
