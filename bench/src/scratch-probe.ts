import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ENV } from './bench-config';
import { startChild } from './child-process';
import { driveFunnel, funnelConfig, startFunnelSandbox } from './funnel';
import type { BffInfo } from './servers/bff-server';

const sandbox = await startFunnelSandbox();
const dataDir = mkdtempSync(join(tmpdir(), 'esim-probe-'));
const child = await startChild<BffInfo>('servers/bff-server.ts', {
  config: funnelConfig(sandbox.info.url), env: BENCH_ENV, sessionSecret: randomBytes(32).toString('base64url'),
  logLevel: 'warn', dataDir }, { stdout: 'ignore' });
const run = await driveFunnel([child], { travellers: 40, durationSeconds: Number(process.env.SECS ?? 60), maxPurchases: Number(process.env.N ?? 300) });
console.log('purchases', run.purchases, 'failures', run.failures.length, run.failures[0]);
console.log(JSON.stringify(await child.ask('storeFootprint'), null, 1));
await child.stop();
await sandbox.stop();
console.log('DATADIR', dataDir);
