// @vitest-environment node
/**
 * `pnpm test` enforces the byte budgets: builds the script-tag bundle into a temporary folder (dist is not
 * committed, and a parallel `vite build` must not be disturbed) and measures it as `check-size.mjs` does.
 * On the same build: the first screen is one request after the loader, and every lazy chunk's own imports
 * are fetched beside it (`parallel-imports-plugin.ts`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, expect, it } from 'vitest';
import { BUDGETS, measureBudgets } from './check-size.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'esim-widget-size-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

let built: Promise<void> | undefined;

/** Builds the script-tag bundle once for this file. */
function buildOnce(): Promise<void> {
  built ??= buildScriptTag();
  return built;
}

async function buildScriptTag(): Promise<void> {
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
}

it('keeps the loader, the first screen, the install step and the device check within their budgets', async () => {
  await buildOnce();
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

/** A chunk of the build manifest. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

it('fetches a lazy chunk and the chunks it imports in one round trip', async () => {
  await buildOnce();
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const chunk = (key: string) => manifest[key] as ManifestChunk;
  const code = (key: string) => readFileSync(join(outDir, chunk(key).file), 'utf8');
  const named = (file: string) => file.split('/').pop() as string;
  // The loader imports one app chunk, and beside it whatever that chunk imports.
  const loader = chunk('src/widget.ts');
  expect(loader.dynamicImports).toHaveLength(1);
  const appKey = loader.dynamicImports?.[0] as string;
  for (const imported of chunk(appKey).imports ?? [])
    expect(code('src/widget.ts')).toContain(`import("./${chunk(imported).file}")`);
  // A language's table needs nothing the app has not loaded.
  expect(chunk('src/i18n/ru.ts').imports ?? []).toEqual([appKey]);
  // The purchase steps' shared chunks come with them, from the app chunk.
  const appCode = code(appKey);
  const shared = (chunk('src/steps/purchase-steps.ts').imports ?? []).filter((key) => key !== appKey);
  expect(shared.length).toBeGreaterThan(0);
  for (const key of shared) {
    if (chunk(appKey).imports?.includes(key)) continue;
    expect(appCode).toContain(`import("./${named(chunk(key).file)}")`);
  }
}, 120_000);
