// @vitest-environment node
/**
 * `pnpm test` enforces the byte budgets: builds the script-tag bundle into a temporary folder (dist is not
 * committed, and a parallel `vite build` must not be disturbed) and measures it as `check-size.mjs` does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, expect, it } from 'vitest';
import { BUDGETS, measureBudgets } from './check-size.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'esim-widget-size-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it('keeps the loader, the first screen, the install step and the device check within their budgets', async () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // Vitest sets NODE_ENV=test, which would make this a development build (with zod parsing) in Vite's eyes.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root,
      configFile: join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const { figures, breaches } = measureBudgets(outDir);
  console.log('widget size (gzip bytes):', figures);
  expect(figures.loader).toBeGreaterThan(300);
  expect(figures.install).toBeGreaterThan(3000);
  // The device check is a chunk of its own, loaded after the plan is chosen, not part of the first screen.
  expect(figures.deviceCheck).toBeGreaterThan(1000);
  expect(breaches).toEqual([]);
  expect(figures.loader).toBeLessThanOrEqual(BUDGETS.loader);
  expect(figures.firstScreen).toBeLessThanOrEqual(BUDGETS.firstScreen);
  expect(figures.install).toBeLessThanOrEqual(BUDGETS.install);
  expect(figures.deviceCheck).toBeLessThanOrEqual(BUDGETS.deviceCheck);
}, 120_000);
