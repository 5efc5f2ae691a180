/**
 * Issue 16's release runs anywhere: `pnpm release` builds its folder, the folder is copied to a temporary
 * directory outside the repository (no `node_modules` anywhere above it), and `node server.mjs` there, with a
 * config file that names its `$schema`, serves a sandbox started here — health, a session for an allowed
 * origin, a catalog read, and the pinned widget whose every file hashes to the integrity the release published.
 * The same folder also runs on the Node.js line production runs (24, fetched by `scripts/production-node.mjs`),
 * keeping its state in the embedded store (SQLite built into Node.js; backed up while it serves and restored with
 * `node server.mjs backup` / `restore`), and on the project's own Node.js 20, which
 * has no SQLite of its own: there it runs on Redis, and without Redis it refuses to start, naming the fixes.
 * It carries the partner SDK and the widget packed for npm, at the one version the BFF, the widget and the SDK
 * share, each with the `sha512` integrity its `packages.json` and README list; the SDK tarball installs with plain
 * `npm install` in a directory outside the repository, and a script there calls this release's BFF's partner API
 * with it and verifies a signed webhook. The SDK README's 30-line quickstart server, saved from the README the
 * tarball installed and started with its documented dependencies on the production Node.js (which runs TypeScript
 * as is), sells a `partner_confirm` checkout through this release's BFF and receives its signed webhooks.
 * The folder carries its guides and deployment files, every relative link of its Markdown resolving inside it:
 * Debian's nginx runs the release's own `deploy/nginx/esim-embed.conf` (its placeholders set to a temporary
 * nginx's, a certificate made by openssl) in front of the production Node.js's BFF, which listens on loopback by
 * default and says so, and an eSIM is bought through it over HTTPS, HSTS on every answer, the client's address
 * and scheme taken from nginx; the release's `deploy/systemd/esim-embed.service` passes `systemd-analyze verify`.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { WidgetIntegritySchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, startBffProcess } from '../harness/bff-process';
import {
  type Answer,
  buyEsim,
  call,
  checkoutAsTraveller,
  eventually,
  freePort,
  openWidget,
  PARTNER_SECRET,
  quickstartServerOf,
  type RunningRedis,
  releaseOutsideTheRepo,
  SHOP_ORIGIN,
  startRedisServer,
  TEST_ENV,
  testConfig,
  type WidgetPage,
} from '../harness/bff-testing';
import { httpsCall, type RunningNginx, selfSignedCertificate, startNginx } from '../harness/nginx-tls';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'esim-release-'));
/** The data directory of the release on the production Node.js. */
const productionDataDir = join(temp, 'production-data');

/** The repository's builds that tests and examples read while a release is built: the release never writes them. */
const REPO_BUILDS = ['packages/widget/dist', 'packages/partner/dist'];
/** Every file of the repository's builds with its size and modification time (`absent` for a build not made). */
const repoBuildsFingerprint = (): string[] =>
  REPO_BUILDS.flatMap((build) =>
    existsSync(join(REPO, build))
      ? readdirSync(join(REPO, build), { recursive: true, encoding: 'utf8' })
          .sort()
          .map((file) => {
            const stat = statSync(join(REPO, build, file));
            return `${build}/${file} ${stat.size} ${stat.mtimeMs}`;
          })
      : [`${build} absent`],
  );
let buildsBefore: string[];
let buildsAfter: string[];

let release: string;
let sandbox: RunningSandbox;
let redis: RunningRedis;
let productionNode: string;
/** The release on this Node.js 20, on Redis. */
let bff: BffProcess;
/** The same release on the production Node.js line. */
let bffOnProductionNode: BffProcess;
let productionNodeVersion: string;
/** Where the quickstart listens: the test config's `partner_confirm` widget sends its webhooks there. */
let quickstartPort: number;
const QUICKSTART_WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
let quickstart: ChildProcess | undefined;
/** Where nginx listens, with TLS and in plain HTTP, in front of the release on the production Node.js. */
let nginxPort: number;
let nginxHttpPort: number;
let nginx: RunningNginx | undefined;

beforeAll(async () => {
  // As an operator would: the folder alone, copied somewhere else.
  buildsBefore = repoBuildsFingerprint();
  release = releaseOutsideTheRepo(temp);
  buildsAfter = repoBuildsFingerprint();
  sandbox = await startSandbox({ offerCount: 50 });
  redis = await startRedisServer();
  productionNode = execFileSync(process.execPath, [join(REPO, 'scripts/production-node.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  productionNodeVersion = execFileSync(productionNode, ['--version'], { encoding: 'utf8' }).trim();
  quickstartPort = await freePort();
  nginxPort = await freePort();
  nginxHttpPort = await freePort();
  [bff, bffOnProductionNode] = await Promise.all([
    start({ redisUrl: redis.url }),
    start({ node: productionNode, dataDir: productionDataDir, behindNginx: true }),
  ]);
}, 180_000);

/**
 * The release started as an operator would, on `node` (default: this Node.js 20). `behindNginx`: as behind the
 * nginx of the release's `deploy/` — one trusted proxy, the shop's page also at nginx's own origin, and a widget
 * of two sessions per client address a minute (`shop-tight`), to see whose address counts.
 */
const start = (
  options: { node?: string; redisUrl?: string; dataDir?: string; behindNginx?: boolean } = {},
) => {
  const { behindNginx = false, ...processOptions } = options;
  const config = testConfig(sandbox.url);
  const widgets = config.widgets.map((widget) =>
    widget.id === 'shop-pay'
      ? {
          ...widget,
          webhookUrl: `http://127.0.0.1:${quickstartPort}/webhooks/esim`,
          webhookSecretEnv: 'QUICKSTART_WEBHOOK_SECRET',
        }
      : widget.id === 'shop' && behindNginx
        ? { ...widget, allowedOrigins: [...widget.allowedOrigins, `https://127.0.0.1:${nginxPort}`] }
        : widget,
  );
  const shop = config.widgets.find((widget) => widget.id === 'shop');
  if (behindNginx && shop !== undefined)
    widgets.push({ ...shop, id: 'shop-tight', limits: { sessionsPerIpPerMinute: 2 } });
  return startBffProcess({
    release,
    ...processOptions,
    config: {
      $schema: join(release, 'config.schema.json'),
      ...config,
      ...(behindNginx ? { trustedProxyHops: 1 } : { console: { enabled: true } }),
      widgets,
    },
    env: {
      ...TEST_ENV,
      QUICKSTART_WEBHOOK_SECRET,
      ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64url'),
    },
  });
};
afterAll(async () => {
  await nginx?.stop();
  quickstart?.kill();
  await bff?.kill();
  await bffOnProductionNode?.kill();
  await sandbox?.close();
  await redis?.stop();
  rmSync(temp, { recursive: true, force: true });
});

describe('the release folder, outside the repository', () => {
  it('has no node_modules to lean on, in it or above it', () => {
    expect(release.startsWith(REPO)).toBe(false);
    const leaned: string[] = [];
    for (let dir = release; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'node_modules'))) leaned.push(dir);
      if (dirname(dir) === dir) break;
    }
    expect(leaned).toEqual([]);
  });

  it("was built without writing the repository's widget and SDK builds, which others read meanwhile", () => {
    expect(buildsAfter).toEqual(buildsBefore);
  });

  it('is healthy, opens a session for an allowed origin and reads the catalog', async () => {
    const health = await call(bff.url, '/healthz');
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { status: 'ok' } });
    const page = await openWidget(bff.url, 'shop');
    expect(page.token).toBeTruthy();
    const destinations = await page.get('/v1/destinations?locale=en');
    expect(destinations.status).toBe(200);
    expect(destinations.body.data.length).toBeGreaterThan(0);
  });

  it('runs the same on the Node.js line production runs, its state in the embedded store on node:sqlite', async () => {
    expect(productionNodeVersion).toMatch(/^v24\./);
    const listening = bffOnProductionNode.logs.find((line) => line.includes('"message":"BFF listening"'));
    expect(listening).toMatch(/"store":"embedded","dataDir":"[^"]+","engine":"node:sqlite"/);
    expect((await call(bffOnProductionNode.url, '/healthz')).status).toBe(200);
    const page = await openWidget(bffOnProductionNode.url, 'shop');
    const destinations = await page.get('/v1/destinations?locale=en');
    expect(destinations.status).toBe(200);
    expect(destinations.body.data.length).toBeGreaterThan(0);
  });

  it('moves its state with `node server.mjs export-state` / `import-state`, never from a directory in use', () => {
    const state = (command: string, dataDir: string, input = '') =>
      spawnSync(productionNode, ['server.mjs', command], {
        cwd: release,
        encoding: 'utf8',
        input,
        env: { PATH: process.env.PATH ?? '', ESIM_BFF_DATA_DIR: dataDir },
      });
    const inUse = state('export-state', productionDataDir);
    expect(inUse.status).toBe(1);
    expect(inUse.stderr).toMatch(
      /export-state failed: the data directory .* is in use by another BFF process: .*take a backup instead: `node server\.mjs backup <file>`/,
    );
    const missing = state('export-state', join(temp, 'mistyped'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/export-state failed: no embedded store in .*mistyped/);
    // A round trip through a new data directory.
    const line = JSON.stringify({
      type: 'entry',
      key: 'checkout:chk_release',
      value: 'ready',
      version: 3,
      ttlMs: 60_000,
    });
    const header = JSON.stringify({
      type: 'esim-bff-state',
      formatVersion: 1,
      exportedAt: new Date().toISOString(),
      from: 'redis',
    });
    const imported = state('import-state', join(temp, 'moved'), `${header}\n${line}\n`);
    expect(imported.status, imported.stderr).toBe(0);
    const exported = state('export-state', join(temp, 'moved'));
    expect(exported.status, exported.stderr).toBe(0);
    const [first, record] = exported.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(first).toMatchObject({ type: 'esim-bff-state', from: 'embedded' });
    expect(record).toMatchObject({ type: 'entry', key: 'checkout:chk_release', value: 'ready', version: 3 });
  });

  it('backs up its embedded store while it serves (`node server.mjs backup`) and restores it (`restore`)', async () => {
    const checkoutId = await checkoutAsTraveller(bffOnProductionNode.url, 'shop');
    const command = (args: string[], dataDir: string) =>
      spawnSync(productionNode, ['server.mjs', ...args], {
        cwd: release,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', ESIM_BFF_DATA_DIR: dataDir },
      });
    const file = join(temp, 'esim-bff.backup.sqlite');
    const backup = command(['backup', file], productionDataDir);
    expect(backup.status, backup.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The BFF served on: it still answers, and the copy restores into a new folder holding the checkout.
    expect((await call(bffOnProductionNode.url, '/readyz')).status).toBe(200);
    const restoredDir = join(temp, 'restored-data');
    const restore = command(['restore', file], restoredDir);
    expect(restore.status, restore.stderr).toBe(0);
    expect(statSync(restoredDir).mode & 0o777).toBe(0o700);
    const exported = command(['export-state'], restoredDir);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(JSON.stringify(`checkout:${checkoutId}`));
  });

  it('runs on Node.js 20 with Redis, and without it refuses to start, naming the fixes', async () => {
    expect(bff.logs.find((line) => line.includes('"message":"BFF listening"'))).toMatch(/"store":"redis"/);
    const refused = await start().then(
      async (started) => {
        await started.kill();
        return 'started';
      },
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(
      /cannot start\.\nthe embedded store needs SQLite: Node\.js 20\.[\d.]+ has no node:sqlite/,
    );
    expect(refused).toMatch(/Node\.js 22\.13 or later.*better-sqlite3@12\.11\.1.*ESIM_BFF_REDIS_URL/s);
  });

  it('refuses a Node.js older than it runs on before anything else runs, naming Node.js 24', () => {
    // Node.js 18 as far as the release can tell: the version it reads, set before its first line runs.
    const pretend = `data:text/javascript,Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.20.4' } });`;
    const refused = spawnSync(process.execPath, ['--import', pretend, 'server.mjs'], {
      cwd: release,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      'esim-embed BFF: cannot start.\nNode.js 18.20.4 is too old for this BFF: it runs on Node.js 20.19 or later, ' +
        'and production on Node.js 24 (docs/deployment.md, "Node.js 24 on the machine").\n',
    );
    expect(refused.stdout).toBe('');
  });

  it('serves its widget version pinned, each file with the integrity the release published', async () => {
    const [version] = readdirSync(join(release, 'widget'));
    const integrity = WidgetIntegritySchema.parse(
      JSON.parse(readFileSync(join(release, 'widget', version ?? '', 'integrity.json'), 'utf8')),
    );
    expect(integrity.version).toBe(version);
    expect(Object.keys(integrity.files)).toContain('widget.js');
    for (const [file, expected] of Object.entries(integrity.files)) {
      const response = await fetch(`${bff.url}/widget@${integrity.version}/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      const hash = createHash('sha384')
        .update(Buffer.from(await response.arrayBuffer()))
        .digest('base64');
      expect(`sha384-${hash}`, file).toBe(expected);
    }
    const served = await call(bff.url, `/widget@${integrity.version}/integrity.json`);
    expect(served.body).toEqual(integrity);
  });

  it('serves the partner console it carries once enabled, its page and scripts under a strict CSP', async () => {
    expect(existsSync(join(release, 'console', 'index.html'))).toBe(true);
    const page = await fetch(`${bff.url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const html = await page.text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1] as string);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const script = await fetch(new URL(src, `${bff.url}/console/`));
      expect(script.status, src).toBe(200);
    }
    // Off unless enabled: the other BFF of the release answers no console.
    expect((await fetch(`${bffOnProductionNode.url}/console/`)).status).toBe(404);
  });
});

/** The README's line that installs the SDK tarball with the quickstart's own dependencies. */
function quickstartInstallLine(readme: string): string {
  const line = readme
    .split('\n')
    .find((text) => /^npm install \.\/esim-embed-partner-<version>\.tgz \S/.test(text));
  if (line === undefined) throw new Error('the README names no install line for the quickstart');
  return line.trim();
}

/** `packages.json` of the release: the packages it carries. */
interface ReleasePackages {
  version: string;
  packages: { name: string; version: string; file: string; integrity: string }[];
}

describe('the packages the release carries', () => {
  const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
  const listed = (): ReleasePackages => readJson(join(release, 'packages.json'));

  it('share one version with the BFF and the widget it serves, as every package.json states', () => {
    const versions = ['bff', 'widget', 'partner'].map(
      (folder) => readJson(join(REPO, 'packages', folder, 'package.json')).version as string,
    );
    const [version] = versions;
    expect(new Set(versions)).toEqual(new Set([version]));
    const { version: released, packages } = listed();
    expect(released).toBe(version);
    expect(release.endsWith(`esim-embed-bff-${version}`)).toBe(true);
    expect(readdirSync(join(release, 'widget'))).toEqual([version]);
    expect(packages.map(({ name, version, file }) => ({ name, version, file }))).toEqual([
      { name: '@esim-embed/partner', version, file: `esim-embed-partner-${version}.tgz` },
      { name: '@esim-embed/widget', version, file: `esim-embed-widget-${version}.tgz` },
    ]);
  });

  it('are the files their integrity names, and the README says how to install them', () => {
    const readme = readFileSync(join(release, 'README.md'), 'utf8');
    for (const { file, integrity } of listed().packages) {
      const hash = createHash('sha512')
        .update(readFileSync(join(release, file)))
        .digest('base64');
      expect(`sha512-${hash}`, file).toBe(integrity);
      expect(readme, file).toContain(`npm install ./${file}`);
      expect(readme, file).toContain(integrity);
    }
    expect(readme).not.toMatch(/\{\{\w+\}\}/);
  });

  it('installs the SDK with plain npm outside the repository, and it talks to this BFF and verifies webhooks', () => {
    const sdk = listed().packages.find(({ name }) => name === '@esim-embed/partner');
    if (sdk === undefined) throw new Error('no SDK in packages.json');
    const project = join(temp, 'partner-server');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      '{ "name": "partner-server", "private": true, "type": "module" }\n',
    );
    copyFileSync(join(release, sdk.file), join(project, sdk.file));
    // As the README says; the SDK's one dependency (zod) comes from npm's cache when it is there.
    execFileSync('npm', ['install', `./${sdk.file}`, '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: project,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const lock = readJson(join(project, 'package-lock.json'));
    expect(lock.packages['node_modules/@esim-embed/partner']).toMatchObject({
      version: sdk.version,
      integrity: sdk.integrity,
    });
    writeFileSync(
      join(project, 'smoke.mjs'),
      `import { createPartnerClient, signWebhook, verifyWebhook, WebhookVerificationError } from '@esim-embed/partner';
import { webhookHandler } from '@esim-embed/partner/hono';
const esim = createPartnerClient({ baseUrl: process.env.ESIM_BFF_URL, partnerSecret: process.env.ESIM_PARTNER_SECRET });
const codeOf = (client) => client.checkouts.read('chk_none').then(() => 'read', (error) => error.code);
const wrong = createPartnerClient({ baseUrl: process.env.ESIM_BFF_URL, partnerSecret: 'not-the-secret' });
const body = JSON.stringify({ id: 'evt_1', type: 'checkout.completed' });
const header = await signWebhook('whsec_release', body, Math.floor(Date.now() / 1000));
const reason = (secret) => verifyWebhook(body, { 'esim-signature': header }, secret).catch((error) =>
  error instanceof WebhookVerificationError ? error.reason : String(error));
console.log(JSON.stringify({
  ownSecret: await codeOf(esim),
  otherSecret: await codeOf(wrong),
  rightSecret: await reason('whsec_release'),
  wrongSecret: await reason('whsec_other'),
  handler: typeof webhookHandler,
}));
`,
    );
    const output = execFileSync(process.execPath, ['smoke.mjs'], {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', ESIM_BFF_URL: bff.url, ESIM_PARTNER_SECRET: PARTNER_SECRET },
    });
    // The BFF knows the partner by its secret (an unknown checkout, not an unknown caller); the right webhook
    // secret passes the signature (the made-up body is then no event), the wrong one does not.
    expect(JSON.parse(output)).toEqual({
      ownSecret: 'checkout_not_found',
      otherSecret: 'unauthorized',
      rightSecret: 'payload_invalid',
      wrongSecret: 'signature_mismatch',
      handler: 'function',
    });
    expect(realpathSync(join(project, 'node_modules/@esim-embed/partner')).startsWith(REPO)).toBe(false);
  });
  it('runs the README’s 30-line quickstart from the installed tarball, and a traveller buys through it', async () => {
    const sdk = listed().packages.find(({ name }) => name === '@esim-embed/partner');
    if (sdk === undefined) throw new Error('no SDK in packages.json');
    const project = join(temp, 'quickstart');
    mkdirSync(project);
    copyFileSync(join(release, sdk.file), join(project, sdk.file));
    const npm = (args: string[]) =>
      execFileSync('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: project,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    npm(['init', '-y']);
    npm(['pkg', 'set', 'type=module']);
    // The README's own install line: the tarball and the quickstart's dependencies, at the versions it names.
    const installed = join(project, 'node_modules/@esim-embed/partner/README.md');
    const packedReadme = readFileSync(join(REPO, 'packages/partner/README.md'), 'utf8');
    const install = quickstartInstallLine(packedReadme).replace('<version>', sdk.version);
    npm(install.split(' ').slice(1));
    const readme = readFileSync(installed, 'utf8');
    expect(readme).toBe(packedReadme);
    writeFileSync(join(project, 'server.ts'), quickstartServerOf(readme));
    copyFileSync(join(REPO, 'examples/partner-quickstart/index.html'), join(project, 'index.html'));

    let output = '';
    quickstart = spawn(productionNode, ['server.ts'], {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? '',
        ESIM_BFF_URL: bff.url,
        ESIM_PARTNER_SECRET: PARTNER_SECRET,
        ESIM_WEBHOOK_SECRET: QUICKSTART_WEBHOOK_SECRET,
        PORT: String(quickstartPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const heard = (chunk: Buffer) => {
      output += chunk.toString();
    };
    quickstart.stdout?.on('data', heard);
    quickstart.stderr?.on('data', heard);
    const url = `http://127.0.0.1:${quickstartPort}`;
    await eventually(async () => ((await fetch(url).catch(() => undefined))?.ok ? true : undefined), 20_000);
    expect(await (await fetch(url)).text()).toContain(`<script type="module" src="${bff.url}/widget.js">`);

    const checkoutId = await checkoutAsTraveller(bff.url, 'shop-pay');
    const paid = await fetch(`${url}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ checkoutId }),
    });
    expect({ status: paid.status, body: await paid.json() }).toMatchObject({
      status: 200,
      body: { outcome: 'confirmed', paymentReference: `pay_${checkoutId}` },
    });
    const read = await call(bff.url, `/v1/partner/checkouts/${checkoutId}`, {
      headers: { 'X-Partner-Secret': PARTNER_SECRET },
    });
    expect(read.body.data.paymentReference).toBe(`pay_${checkoutId}`);
    // The tarball's Hono handler verified the BFF's signed webhooks.
    for (const type of ['checkout.awaiting_payment', 'checkout.completed', 'esim.ready']) {
      await eventually(async () => (output.includes(`webhook ${type} evt_`) ? true : undefined), 30_000);
    }
    expect(realpathSync(join(project, 'node_modules/@esim-embed/partner')).startsWith(REPO)).toBe(false);
  }, 180_000);
});

/** `[text](target)` links of a Markdown text, outside its code blocks. */
const markdownLinks = (markdown: string) =>
  [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map(
    (match) => match[1] as string,
  );

describe('the guides and deployment files the release carries', () => {
  it('link only to what the folder holds: every relative link of its Markdown resolves inside it', () => {
    const markdown = readdirSync(release, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.md'),
    );
    expect(markdown).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/deployment.md',
        'docs/going-live.md',
        'docs/configuration.md',
      ]),
    );
    const broken: string[] = [];
    const linked = new Set<string>();
    for (const file of markdown) {
      const text = readFileSync(join(release, file), 'utf8');
      expect(text, file).not.toMatch(/in its source repository/);
      for (const target of markdownLinks(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const path = resolve(release, dirname(file), decodeURIComponent(target.split('#')[0] as string));
        linked.add(relative(release, path));
        if (relative(release, path).startsWith('..') || !existsSync(path)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
    // The guides show the very files the tests below run.
    expect([...linked]).toEqual(
      expect.arrayContaining(['deploy/nginx/esim-embed.conf', 'deploy/systemd/esim-embed.service']),
    );
  });

  it('listens on loopback by default, and its start-up line names the address bound', async () => {
    const listening = bffOnProductionNode.logs.find((line) => line.includes('"message":"BFF listening"'));
    expect(JSON.parse(listening ?? '{}').url).toBe(`http://127.0.0.1:${bffOnProductionNode.port}`);
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4')
      .map((address) => address?.address as string);
    const reached = await Promise.all(
      outside.map(
        (address) =>
          new Promise<string>((resolve) => {
            const socket = connect({ host: address, port: bffOnProductionNode.port });
            socket.once('connect', () => {
              socket.destroy();
              resolve(`${address}: connected`);
            });
            socket.once('error', (error: NodeJS.ErrnoException) => resolve(`${address}: ${error.code}`));
          }),
      ),
    );
    expect(reached).toEqual(outside.map((address) => `${address}: ECONNREFUSED`));
    // A container is reached from outside itself: its image says so.
    expect(readFileSync(join(release, 'Dockerfile'), 'utf8')).toMatch(/^ENV .*\bHOST=0\.0\.0\.0\b/m);
  });

  it('has a systemd unit that passes `systemd-analyze verify`, its data folder one the BFF accepts', () => {
    const unit = readFileSync(join(release, 'deploy/systemd/esim-embed.service'), 'utf8');
    // Where this test runs the release and its Node.js: verify checks that ExecStart's program is there.
    const placed = substituted(unit, [
      ['/usr/bin/node', productionNode],
      ['/opt/esim-embed/current', release],
    ]);
    const dir = join(temp, 'systemd');
    mkdirSync(dir);
    writeFileSync(join(dir, 'esim-embed.service'), placed);
    const verify = spawnSync('/usr/bin/systemd-analyze', ['verify', join(dir, 'esim-embed.service')], {
      encoding: 'utf8',
    });
    expect(verify.error, 'systemd-analyze is missing: run `node scripts/system-deps.mjs`').toBeUndefined();
    expect(verify.stderr.split('\n').filter((line) => line.includes('esim-embed'))).toEqual([]);
    expect(verify.status, verify.stderr).toBe(0);
    const setting = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(unit)?.[1];
    expect(setting('MemoryDenyWriteExecute')).toBeUndefined();
    expect(setting('StateDirectoryMode')).toBe('0700');
    // Longer than the BFF's own stop (server.stopSeconds, 10 s by default) before systemd kills it.
    expect(Number(/^(\d+)s$/.exec(setting('TimeoutStopSec') ?? '')?.[1])).toBeGreaterThan(10);
    // systemd's StateDirectory with DynamicUser: /var/lib/esim-embed, a link to a 0700 folder in the 0700
    // /var/lib/private. The BFF opens it (import-state opens the data folder as the BFF does).
    mkdirSync(join(dir, 'private/esim-embed'), { recursive: true, mode: 0o700 });
    chmodSync(join(dir, 'private'), 0o700);
    chmodSync(join(dir, 'private/esim-embed'), 0o700);
    symlinkSync('private/esim-embed', join(dir, 'esim-embed'));
    const header = JSON.stringify({
      type: 'esim-bff-state',
      formatVersion: 1,
      exportedAt: new Date().toISOString(),
      from: 'embedded',
    });
    const opened = spawnSync(productionNode, ['server.mjs', 'import-state'], {
      cwd: release,
      encoding: 'utf8',
      input: `${header}\n`,
      env: { PATH: process.env.PATH ?? '', ESIM_BFF_DATA_DIR: join(dir, 'esim-embed') },
    });
    expect(opened.status, opened.stderr).toBe(0);
  });
});

/** `text` with each `[placeholder, value]` replaced; a placeholder the text lacks is the docs' drift, an error. */
function substituted(text: string, replacements: [string, string][]): string {
  let result = text;
  for (const [placeholder, value] of replacements) {
    if (!result.includes(placeholder)) throw new Error(`the file no longer holds ${placeholder}`);
    result = result.replaceAll(placeholder, value);
  }
  return result;
}

describe("behind nginx with TLS, as the release's deploy/nginx/esim-embed.conf sets it up", () => {
  let ca: string;
  const nginxOrigin = () => `https://127.0.0.1:${nginxPort}`;

  beforeAll(async () => {
    const dir = join(temp, 'nginx');
    mkdirSync(dir);
    const certificate = selfSignedCertificate(dir);
    ca = certificate.pem;
    const conf = readFileSync(join(release, 'deploy/nginx/esim-embed.conf'), 'utf8');
    const site = (nginxDir: string) =>
      substituted(conf, [
        ['listen 443 ssl;', `listen 127.0.0.1:${nginxPort} ssl;`],
        ['listen 80;', `listen 127.0.0.1:${nginxHttpPort};`],
        ['/etc/letsencrypt/live/bff.example.com/fullchain.pem', certificate.certFile],
        ['/etc/letsencrypt/live/bff.example.com/privkey.pem', certificate.keyFile],
        ['server 127.0.0.1:8787;', `server 127.0.0.1:${bffOnProductionNode.port};`],
        ['/var/cache/nginx/esim-embed', join(nginxDir, 'cache')],
      ]);
    nginx = await startNginx({ site, port: nginxPort });
  }, 30_000);

  /** A widget page through nginx over HTTPS (trusting its certificate alone), every answer kept. */
  const pageThroughNginx = async (widgetId: string, answers: Answer[]): Promise<WidgetPage> => {
    const through = async (path: string, init: Parameters<typeof httpsCall>[2]) => {
      const answer = await httpsCall(nginxOrigin(), path, init);
      answers.push(answer);
      return answer;
    };
    const session = await through('/v1/sessions', {
      ca,
      method: 'POST',
      headers: { Origin: SHOP_ORIGIN },
      body: { widgetId },
    });
    if (session.status !== 201) throw new Error(`session refused: ${session.status} ${session.text}`);
    const auth = { Origin: SHOP_ORIGIN, Authorization: `Bearer ${session.body.data.token}` };
    return {
      token: session.body.data.token,
      session: session.body.data,
      get: (path, headers = {}) => through(path, { ca, headers: { ...auth, ...headers } }),
      post: (path, body, headers = {}) =>
        through(path, { ca, method: 'POST', headers: { ...auth, ...headers }, body }),
    };
  };

  it('sells an eSIM through it over HTTPS: a quote, a checkout, the eSIM ready; HSTS on every answer, once', async () => {
    const answers: Answer[] = [];
    const page = await pageThroughNginx('shop', answers);
    const bought = await buyEsim(page);
    expect(bought.esimId).toBeTruthy();
    // The session, destinations, plans, quote, checkout, its status read until ready, the manage link.
    expect(answers.length).toBeGreaterThan(6);
    // nginx's value alone: the BFF's own copy is hidden, so browsers read one header, not two joined.
    expect(new Set(answers.map((answer) => answer.headers.get('strict-transport-security')))).toEqual(
      new Set(['max-age=63072000; includeSubDomains']),
    );
    // nginx's own answers carry it too: a body over client_max_body_size is refused before the BFF sees it.
    const tooLarge = await httpsCall(nginxOrigin(), '/v1/quotes', {
      ca,
      method: 'POST',
      headers: { Origin: SHOP_ORIGIN },
      body: { offerId: 'x'.repeat(20_000) },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    // Plain HTTP sends the browser to HTTPS.
    const plain = await fetch(`http://127.0.0.1:${nginxHttpPort}/v1/sessions`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toMatch(/^https:\/\/127\.0\.0\.1\/v1\/sessions$/);
  });

  it("counts the client's address as nginx saw it (X-Forwarded-For, trustedProxyHops 1), never the one it claims", async () => {
    // From 127.0.0.2, claiming another address each time: nginx appends the real one, which the BFF reads.
    const sessionFrom = async (from: string, claimed: string) =>
      (
        await httpsCall(nginxOrigin(), '/v1/sessions', {
          ca,
          from,
          method: 'POST',
          headers: { Origin: SHOP_ORIGIN, 'X-Forwarded-For': claimed },
          body: { widgetId: 'shop-tight' },
        })
      ).status;
    const claiming = [];
    for (let index = 0; index < 3; index += 1)
      claiming.push(await sessionFrom('127.0.0.2', `10.9.9.${index}`));
    expect(claiming).toEqual([201, 201, 429]);
    // Another client behind the same nginx has its own count.
    expect(await sessionFrom('127.0.0.3', '10.9.9.0')).toBe(201);
  });

  it('takes the scheme the client used from nginx (X-Forwarded-Proto): a page of https://… on the BFF’s own origin starts', async () => {
    // A same-origin GET carries no Origin: the BFF's own origin, as the browser addressed it, is the page's.
    const started = await httpsCall(nginxOrigin(), '/v1/widgets/shop/start', {
      ca,
      headers: { 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(started.status, `${started.text}\n${nginx?.errors()}`).toBe(200);
  });
});
