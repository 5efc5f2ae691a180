/**
 * Issue 37's "done when": a backup taken while purchases run restores into a BFF that reads and refunds every one
 * of them. A built BFF process (the esbuild bundle, as production runs it) sells from its embedded store in front
 * of the sandbox; travellers keep buying, side by side, while `server.js backup <file>` copies the store — the
 * BFF is never stopped. The backup is `0600`; `restore` refuses the folder in use and writes the copy into a new
 * one (`0700`, files `0600`). The BFF is then gone (the machine lost), and a second BFF started on the restored
 * folder serves every sale that was complete before the backup began: the partner reads it, its traveller's
 * manage link opens, and the partner asks for its refund. A sale begun after the backup ended is not in the copy,
 * and the restored BFF reports its upstream order as one without a checkout, or as lost and left to its
 * traveller's retry for a session's lifetime: no order is silently lost.
 *
 * Run on both SQLite engines: better-sqlite3 on this Node.js, and `node:sqlite` on the Node.js line production runs.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BffConfigInput } from '@esim-embed/bff';
import { BFF_BUNDLE } from '@esim-embed/bff/testing';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { MANAGE_TOKEN_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, buildBffBundle, startBffProcess } from '../harness/bff-process';
import {
  type BoughtEsim,
  buyEsim,
  call,
  checkoutAsTraveller,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  TEST_ENV,
  testConfig,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { upstreamOrders } from '../harness/upstream-orders';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** Travellers buying side by side, each one purchase after another, while the backup runs. */
const TRAVELLERS = 3;

interface Engine {
  name: string;
  /** The Node.js binary (undefined: this one, 20, with better-sqlite3). */
  node: () => string | undefined;
  engine: string;
}

const ENGINES: Engine[] = [
  { name: 'better-sqlite3 on this Node.js', node: () => undefined, engine: 'better-sqlite3' },
  {
    name: 'node:sqlite on the production Node.js',
    node: () =>
      execFileSync(process.execPath, [join(REPO, 'scripts/production-node.mjs')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }).trim(),
    engine: 'node:sqlite',
  },
];

/** A sale followed through the backup: when it was complete (ready, manage link minted). */
interface Sale {
  checkoutId: string;
  esimId: string;
  manageToken?: string;
  startedAt: number;
  completedAt: number;
}

/** `node <bundle> <command> <args>` as an operator runs it; never throws on a non-zero exit. */
function runCommand(
  node: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      node,
      [BFF_BUNDLE, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

beforeAll(() => buildBffBundle(), 60_000);

describe.each(ENGINES)('a backup taken while travellers buy, restored ($name)', (engine) => {
  const root = mkdtempSync(join(tmpdir(), 'esim-backup-while-serving-'));
  const dataDir = join(root, 'data');
  const restoredDir = join(root, 'restored');
  const backupFile = join(root, 'backups', 'esim-bff.backup.sqlite');
  const env = { ...TEST_ENV, ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64url') };
  let node: string;
  let sandbox: RunningSandbox;
  let original: BffProcess | undefined;
  let restored: BffProcess | undefined;
  let stopTravellers = () => {};

  function config(sandboxUrl: string): BffConfigInput {
    const base = testConfig(sandboxUrl, { checkoutWatchSeconds: 1 });
    // Travellers poll their checkouts as fast as the test can: no rate limit stands in their way.
    const limits = {
      sessionsPerIpPerMinute: 1_000,
      requestsPerSessionPerMinute: 100_000,
      partnerWritesPerMinute: 10_000,
    };
    return { ...base, widgets: base.widgets.map((widget) => ({ ...widget, limits })) };
  }
  const start = (folder: string) =>
    startBffProcess({ config: config(sandbox.url), env, built: true, dataDir: folder, node });

  beforeAll(async () => {
    node = engine.node() ?? process.execPath;
    sandbox = await startSandbox({
      stepDelaysMs: { provisioning: 200, delivery: 0, completion: 0 },
      offerCount: 50,
    });
    original = await start(dataDir);
    // Where the operator keeps backups: a folder of its own, its user's alone.
    mkdirSync(dirname(backupFile), { mode: 0o700 });
  }, 120_000);
  afterAll(async () => {
    stopTravellers();
    await original?.kill();
    await restored?.kill();
    await sandbox?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const partner = (url: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    call(url, path, {
      ...init,
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
    });

  /** A `direct` sale, bought as the widget buys it, with its manage link. */
  async function directSale(url: string): Promise<Sale> {
    const startedAt = Date.now();
    const bought: BoughtEsim = await buyEsim(await openWidget(url, 'shop'));
    return { ...bought, startedAt, completedAt: Date.now() };
  }

  /** A `partner_confirm` sale: the traveller's checkout, the partner's confirm, ready. */
  async function confirmedSale(url: string): Promise<Sale> {
    const startedAt = Date.now();
    const checkoutId = await checkoutAsTraveller(url, 'shop-pay');
    const confirmed = await partner(url, `/v1/partner/checkouts/${checkoutId}/confirm`, {
      method: 'POST',
      body: { paymentReference: `pay_${checkoutId}` },
    });
    expect(confirmed.status, confirmed.text).toBeLessThan(300);
    const ready = await eventually(async () => {
      const read = await partner(url, `/v1/partner/checkouts/${checkoutId}`);
      expect(read.status, read.text).toBe(200);
      return read.body.data.status === 'ready' ? read.body.data : undefined;
    }, 30_000);
    return { checkoutId, esimId: ready.esimId, startedAt, completedAt: Date.now() };
  }

  it('serves every sale complete before the backup began from the restored copy, and refunds each', async () => {
    const url = (original as BffProcess).url;
    const sales: Sale[] = [
      ...(await Promise.all([0, 1, 2, 3].map(() => directSale(url)))),
      ...(await Promise.all([0, 1].map(() => confirmedSale(url)))),
    ];

    // Travellers buy one purchase after another, side by side, until told to stop: at any instant between their
    // first purchase and the stop some purchase is under way.
    let stop = false;
    stopTravellers = () => {
      stop = true;
    };
    const completed: (Sale & { traveller: number })[] = [];
    const travellers = Promise.all(
      Array.from({ length: TRAVELLERS }, async (_, traveller) => {
        while (!stop) completed.push({ ...(await directSale(url)), traveller });
      }),
    );
    // Awaited below; a test that fails before then stops them in afterAll, and their errors are its own.
    travellers.catch(() => undefined);
    /** True once every traveller has completed a purchase that `since` says is recent enough. */
    const everyTravellerBought = (since: (sale: Sale) => boolean) =>
      Array.from({ length: TRAVELLERS }, (_, traveller) => traveller).every((traveller) =>
        completed.some((sale) => sale.traveller === traveller && since(sale)),
      );
    // Each traveller has bought once: purchases are under way, in every state, when the backup begins.
    await eventually(async () => (everyTravellerBought(() => true) ? true : undefined), 60_000);

    const backupStartedAt = Date.now();
    const backup = await runCommand(node, ['backup', backupFile], { ESIM_BFF_DATA_DIR: dataDir });
    const backupEndedAt = Date.now();
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toMatch(
      new RegExp(`backed up the embedded store in ${dataDir} to ${backupFile} \\(\\d+ checkouts, `),
    );
    // The travellers buy on after the backup, each once more at least, then stop.
    await eventually(
      async () => (everyTravellerBought((sale) => sale.startedAt > backupEndedAt) ? true : undefined),
      60_000,
    );
    stop = true;
    await travellers;
    sales.push(...completed);

    // The backup is its owner's alone, and the BFF served throughout: no traveller's purchase failed (the loops
    // above would have thrown), and purchases were under way before, during and after it.
    expect(mode(backupFile)).toBe('0600');
    const duringBackup = completed.filter(
      (sale) => sale.startedAt <= backupEndedAt && sale.completedAt >= backupStartedAt,
    );
    expect(duringBackup.length).toBeGreaterThan(0);
    // At or before: the backup command starts (a process of its own) after that instant, within the same millisecond too.
    const completeBefore = sales.filter((sale) => sale.completedAt <= backupStartedAt);
    const begunAfter = completed.filter((sale) => sale.startedAt > backupEndedAt);
    expect(completeBefore.length).toBeGreaterThanOrEqual(6 + TRAVELLERS);
    expect(begunAfter.length).toBeGreaterThanOrEqual(TRAVELLERS);

    // The restore refuses the folder in use, then writes the copy into a new one.
    const intoUsed = await runCommand(node, ['restore', backupFile], { ESIM_BFF_DATA_DIR: dataDir });
    expect(intoUsed.code).toBe(1);
    expect(intoUsed.stderr).toContain(`restore failed: the data directory ${dataDir} is not empty`);
    // The machine is lost: its BFF is gone, and the copy is restored elsewhere.
    await (original as BffProcess).kill('SIGKILL');
    const restoring = await runCommand(node, ['restore', backupFile], { ESIM_BFF_DATA_DIR: restoredDir });
    expect(restoring.code, restoring.stderr).toBe(0);
    expect(mode(restoredDir)).toBe('0700');
    for (const file of readdirSync(restoredDir)) expect(mode(join(restoredDir, file)), file).toBe('0600');

    restored = await start(restoredDir);
    const listening = restored.logs.find((line) => line.includes('"message":"BFF listening"'));
    expect(listening).toContain(`"engine":"${engine.engine}"`);
    const restoredUrl = restored.url;
    await Promise.all(
      completeBefore.map(async (sale) => {
        const read = await partner(restoredUrl, `/v1/partner/checkouts/${sale.checkoutId}`);
        expect(read.status, read.text).toBe(200);
        expect(read.body.data).toMatchObject({ id: sale.checkoutId, status: 'ready', esimId: sale.esimId });
        if (sale.manageToken !== undefined) {
          const page = await openWidget(restoredUrl, 'shop');
          const view = await page.get('/v1/my-esim', { [MANAGE_TOKEN_HEADER]: sale.manageToken });
          expect(view.status, view.text).toBe(200);
          expect(view.body.data.esimId).toBe(sale.esimId);
        }
        const refund = await partner(restoredUrl, `/v1/partner/esims/${sale.esimId}/action-requests`, {
          method: 'POST',
          body: { reasonCode: 'service_defective', reasonDetail: 'refunded from a restored backup' },
        });
        expect(refund.status, refund.text).toBe(201);
        expect(refund.body.data).toMatchObject({ type: 'refund', esimId: sale.esimId });
      }),
    );

    // What began after the backup is not in the copy; its upstream order is reported, not silently lost.
    for (const sale of begunAfter) {
      const read = await partner(restoredUrl, `/v1/partner/checkouts/${sale.checkoutId}`);
      expect(read.status, read.text).toBe(404);
    }
    const orders = await upstreamOrders(sandbox.url);
    const unaccounted = async () => {
      const missing: string[] = [];
      for (const order of orders) {
        const read = await partner(
          restoredUrl,
          `/v1/partner/checkouts/${encodeURIComponent(order.externalRef)}`,
        );
        // Reported as without a checkout, or (within a session of its making) told lost and left to its
        // traveller's retry, which makes the same checkout again and links it.
        const reported = (restored as BffProcess).logs.some(
          (line) =>
            (line.includes('upstream order without a checkout') ||
              line.includes("upstream order of a checkout the store lost: left to its traveller's retry")) &&
            line.includes(`"orderId":"${order.id}"`),
        );
        if (read.status !== 200 && !reported) missing.push(`${order.id} (${order.externalRef})`);
      }
      return missing;
    };
    await eventually(async () => ((await unaccounted()).length === 0 ? true : undefined), 30_000).catch(
      async () => expect(await unaccounted()).toEqual([]),
    );

    const figures: Figure[] = [
      ['sales complete before the backup, served and refunded from the copy', completeBefore.length],
      ['purchases under way while the backup ran', duringBackup.length],
      ['checkouts begun after the backup (not in it, their orders reported)', begunAfter.length],
      ['backup command, start to exit', `${((backupEndedAt - backupStartedAt) / 1000).toFixed(1)} s`],
      ['backup file', `${(statSync(backupFile).size / 1000).toFixed(0)} kB`],
    ];
    recordFigures(`backup while serving: ${engine.name}`, figures);
  }, 240_000);
});
