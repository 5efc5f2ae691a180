/**
 * Issue 16's partner quickstart, as a new partner runs it. The BFF is the release folder (`pnpm release`) copied
 * outside the repository and started with `node server.mjs` on the production Node.js line (its state in the
 * embedded store, SQLite built into that Node.js); the partner's server is
 * `examples/partner-quickstart/server.ts` (the SDK, at most 30 lines), serving its page on another origin than
 * the BFF. The page pins the widget's version with Subresource Integrity — `/widget@<version>/widget.js` with its
 * `integrity`, the chunks through the import map — as the partner copies them from the release's
 * `integrity.json`. A traveller buys in `partner_confirm`: the partner's server charges and confirms, the eSIM is
 * installed, and the BFF's signed webhooks reach the partner's server verified.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, PARTNER_SECRET, TEST_ENV, testConfig } from '@esim-embed/bff/testing';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { WidgetIntegritySchema } from '@esim-embed/shared';
import { expect, test } from '@playwright/test';
import { quickstartRelease } from '../support/release-build';
import { WidgetFlow } from '../support/widget-flow';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const QUICKSTART = join(REPO, 'examples/partner-quickstart');
const WIDGET_ID = 'shop-pay';
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64url')}`;

interface Running {
  child: ChildProcess;
  output: string[];
}

let temp: string;
let sandbox: RunningSandbox;
let bff: Running;
let partner: Running;
let bffUrl: string;
let partnerUrl: string;

/** Starts a process and keeps what it prints. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Running {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk) => output.push(String(chunk)));
  return { child, output };
}

/** Waits until `url` answers 200, or fails with what the process printed. */
async function answering(url: string, process: Running): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) break;
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer:\n${process.output.join('')}`);
}

/** The quickstart's page with its script tag replaced by the pinned one the partner copies from `integrity.json`. */
function pinnedPage(release: string): string {
  const [version] = readdirSync(join(release, 'widget'));
  const integrity = WidgetIntegritySchema.parse(
    JSON.parse(readFileSync(join(release, 'widget', version ?? '', 'integrity.json'), 'utf8')),
  );
  const base = `${bffUrl}/widget@${integrity.version}/`;
  const { 'widget.js': loader, ...chunks } = integrity.files;
  const importMap = {
    integrity: Object.fromEntries(Object.entries(chunks).map(([file, hash]) => [`${base}${file}`, hash])),
  };
  const pinned =
    `<script type="importmap">${JSON.stringify(importMap)}</script>\n` +
    `    <script type="module" src="${base}widget.js" integrity="${loader}" crossorigin="anonymous"></script>`;
  const page = readFileSync(join(QUICKSTART, 'index.html'), 'utf8');
  const unpinned = '<script type="module" src="{{BFF}}/widget.js"></script>';
  if (!page.includes(unpinned)) throw new Error('the quickstart page no longer has its script tag');
  return page.replace(unpinned, pinned);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  temp = mkdtempSync(join(tmpdir(), 'esim-quickstart-'));
  // Built beside the run since the global setup started it (or now, when it did not).
  const release = await quickstartRelease(temp, 150_000);
  const [bffPort, partnerPort] = [await freePort(), await freePort()];
  // Two origins: the BFF on `localhost`, the partner's site on `127.0.0.1`.
  bffUrl = `http://localhost:${bffPort}`;
  partnerUrl = `http://127.0.0.1:${partnerPort}`;

  sandbox = await startSandbox({ stepDelaysMs: { provisioning: 100, delivery: 300, completion: 200 } });
  const base = testConfig(sandbox.url, { checkoutWatchSeconds: 1 });
  const config = {
    $schema: './config.schema.json',
    ...base,
    widgets: base.widgets.map((widget) =>
      widget.id === WIDGET_ID
        ? {
            ...widget,
            allowedOrigins: [partnerUrl],
            webhookUrl: `${partnerUrl}/webhooks/esim`,
            webhookSecretEnv: 'TEST_WEBHOOK_SECRET',
          }
        : widget,
    ),
  };
  writeFileSync(join(release, 'config.json'), JSON.stringify(config));
  // As production runs it: Node.js 24, whose node:sqlite keeps the release's state in its data/ folder.
  const productionNode = execFileSync(process.execPath, [join(REPO, 'scripts/production-node.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  bff = run(productionNode, ['server.mjs'], {
    cwd: release,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(bffPort),
      ESIM_BFF_CONFIG: 'config.json',
      ESIM_BFF_PUBLIC_ORIGIN: bffUrl,
      ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64url'),
      ...TEST_ENV,
      TEST_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
  await answering(`${bffUrl}/healthz`, bff);

  const page = join(temp, 'index.html');
  writeFileSync(page, pinnedPage(release));
  partner = run(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: QUICKSTART,
    env: {
      ...process.env,
      ESIM_BFF_URL: bffUrl,
      ESIM_PARTNER_SECRET: PARTNER_SECRET,
      ESIM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PORT: String(partnerPort),
      PAGE: page,
    },
  });
  await answering(partnerUrl, partner);
});

test.afterAll(async () => {
  partner?.child.kill();
  bff?.child.kill();
  await sandbox?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

test('a traveller buys on the partner page, the partner confirms, and its server hears verified webhooks', async ({
  page,
}) => {
  // The partner's own code: the server file, counted as the partner reads it.
  expect(
    readFileSync(join(QUICKSTART, 'server.ts'), 'utf8').trimEnd().split('\n').length,
  ).toBeLessThanOrEqual(30);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const integrityErrors: string[] = [];
  page.on('console', (message) => {
    if (/integrity/i.test(message.text())) integrityErrors.push(message.text());
  });

  await page.goto(`${partnerUrl}/?widget=${WIDGET_ID}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('France', 'France');
  await widget.choosePlan();
  await widget.buy();
  // The page's own `esim-checkout` handler pays through the partner server, which confirms with the BFF.
  await expect(page.locator('#payment')).toHaveText(/^Payment: /, { timeout: 20_000 });
  await widget.installed();

  // Every script came pinned from the BFF's versioned address; none failed its integrity check.
  const widgetScripts = scripts.filter((url) => url.startsWith(bffUrl));
  expect(widgetScripts.length).toBeGreaterThan(1);
  for (const url of widgetScripts) expect(url).toMatch(/\/widget@\d+\.\d+\.\d+[^/]*\//);
  expect(integrityErrors).toEqual([]);

  // The partner's server logs only events whose signature it verified (`onEvent` runs after the check).
  await expect
    .poll(() => partner.output.join(''), { timeout: 20_000 })
    .toMatch(/webhook checkout\.completed evt_/);
  expect(partner.output.join('')).not.toMatch(/refunded/);
});
