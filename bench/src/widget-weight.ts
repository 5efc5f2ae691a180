/**
 * @module
 * Widget weight: gzip and brotli bytes of the script-tag entry and of every chunk of the build, and the
 * budgets (loader, first screen, lazy install step, lazy device check) measured by the widget's own
 * `scripts/check-size.mjs` — the same code its size-budget test runs, so the test and the report cannot disagree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BUDGETS, WIDGET_DIST as BUILT_WIDGET, measureBudgets } from '@esim-embed/widget-testing';
import { check, fmt, type Section, table } from './report';

/** Bytes of one file of the build. */
export interface FileWeight {
  /** Path under `dist/` (`widget.js`, `widget-chunks/widget-app-….js`). */
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

/**
 * The widget's script-tag build folder; `BENCH_WIDGET_DIST` points at another build — how a proposed
 * change to the widget is measured before / after without touching the package (see bench/README.md).
 */
export const WIDGET_DIST = process.env.BENCH_WIDGET_DIST || BUILT_WIDGET;

/** Every JavaScript file of the script-tag build with its compressed sizes (gzip -9, brotli 11). */
export function weighBuild(distDir = WIDGET_DIST): FileWeight[] {
  const files = [
    'widget.js',
    ...readdirSync(join(distDir, 'widget-chunks')).map((f) => `widget-chunks/${f}`),
  ];
  return files
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const bytes = readFileSync(join(distDir, file));
      return {
        file: relative('.', file),
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
        brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
    })
    .sort((a, b) => (a.file === 'widget.js' ? -1 : b.file === 'widget.js' ? 1 : b.gzip - a.gzip));
}

/** The widget-weight section. */
export function widgetWeightSection(weights: FileWeight[], distDir = WIDGET_DIST): Section {
  const { figures } = measureBudgets(distDir);
  const total = (key: 'raw' | 'gzip' | 'brotli') => weights.reduce((sum, w) => sum + w[key], 0);
  return {
    title: 'Widget weight',
    command: 'npx -y pnpm@12.21.0 bench --only weight',
    lines: [
      'The script-tag build (`packages/widget/dist`, built by the harness first). gzip -9 and brotli 11, as the',
      'BFF sends them (each file compressed once; under 1 KB as it is).',
      '',
      ...table(
        ['file', 'raw', 'gzip', 'brotli'],
        [
          ...weights.map((w) => [
            w.file === 'widget.js' ? '`widget.js` (script-tag entry)' : `\`${w.file}\``,
            fmt.kb(w.raw),
            fmt.kb(w.gzip),
            fmt.kb(w.brotli),
          ]),
          ['**all files**', fmt.kb(total('raw')), fmt.kb(total('gzip')), fmt.kb(total('brotli'))],
        ],
      ),
      'Budgets as `scripts/check-size.mjs` measures them (gzip, each file with its static imports): the',
      'loader; the first screen = loader + app chunk + the largest message table; the install step with the',
      'QR encoder, and the device check with its largest message table, each beyond what the first screen',
      'loaded. The JavaScript the browser actually fetched before the destinations were usable is listed in',
      '“Widget on a page”.',
      '',
    ],
    checks: [
      check('weight.loader', 'script-tag loader (gzip)', figures.loader, '<=', BUDGETS.loader, fmt.kb),
      check(
        'weight.first-screen',
        'JS for the first screen (gzip)',
        figures.firstScreen,
        '<=',
        BUDGETS.firstScreen,
        fmt.kb,
      ),
      check(
        'weight.install',
        'install chunk with QR encoder (gzip)',
        figures.install,
        '<=',
        BUDGETS.install,
        fmt.kb,
      ),
      check(
        'weight.device-check',
        'device check with its messages (gzip)',
        figures.deviceCheck,
        '<=',
        BUDGETS.deviceCheck,
        fmt.kb,
      ),
    ],
  };
}
