/**
 * @module
 * The figures each suite proves (cases per endpoint, refusals, orders per checkout, memory after the soak):
 * printed by the suite as it finishes and collected for the summary table printed after the whole run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the suites leave their figures for the summary (one JSON file per suite). */
    figuresDir: string;
  }
}

/** One line of a suite's figures: what was measured and its value. */
export type Figure = readonly [label: string, value: string | number];

/** Record a suite's figures: print them now and leave them for the run's summary. */
export function recordFigures(suite: string, figures: readonly Figure[]): void {
  const dir = inject('figuresDir');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${suite.replace(/[^a-z0-9-]+/gi, '-')}.json`);
  writeFileSync(file, JSON.stringify({ suite, figures }));
  const width = Math.max(...figures.map(([label]) => label.length));
  const lines = figures.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  console.log(`[reliability] ${suite}\n${lines.join('\n')}`);
}
