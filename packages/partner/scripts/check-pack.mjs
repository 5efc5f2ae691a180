#!/usr/bin/env node
/**
 * @module
 * Checks the SDK as npm will ship it: packs it with pnpm (whose `prepack` builds it) and with npm (the same files
 * and `exports` are asserted), then asserts that the tarball holds exactly what its `exports` name — their files and the chunks and
 * declarations those reach — plus README, LICENSE and package.json, and nothing from sources or tests; then runs
 * `publint --strict` on the unpacked package and `attw` (ESM only: the package has no CommonJS entry) on the
 * tarball, and loads the unpacked entries in Node (with the dependencies and peers it declares) to sign and verify
 * a webhook with them. Exits 1 on any finding.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'esim-partner-pack-'));
/** Runs in the unpacked package: its three entries load, and a webhook signed as the BFF signs it verifies. */
const SMOKE = `
import { signWebhook, verifyWebhook, WebhookVerificationError, createPartnerClient } from '@esim-embed/partner';
import { webhookHandler as express } from '@esim-embed/partner/express';
import { webhookHandler as hono } from '@esim-embed/partner/hono';
const body = JSON.stringify({ id: 'evt_1', type: 'checkout.completed' });
const header = await signWebhook('whsec_smoke', body, Math.floor(Date.now() / 1000));
const reason = (secret) => verifyWebhook(body, { 'esim-signature': header }, secret).catch((error) => error instanceof WebhookVerificationError ? error.reason : error);
const found = [await reason('whsec_smoke'), await reason('whsec_other'), typeof createPartnerClient, typeof express, typeof hono];
if (found.join() !== 'payload_invalid,signature_mismatch,function,function,function') throw new Error(found.join());
`;

const run = (command, args, cwd = root) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

try {
  const packed = JSON.parse(
    run('pnpm', ['pack', '--pack-destination', work, '--json']).replace(/^[^{]*/s, ''),
  );
  run('tar', ['-xzf', packed.filename, '-C', work]);
  const unpacked = join(work, 'package');
  const files = packed.files.map((file) => file.path).sort();
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
  const problems = [];

  const allowed = (path) =>
    ['package.json', 'README.md', 'LICENSE'].includes(path) || /^dist\/.+\.(js|d\.ts)$/.test(path);
  for (const path of files) {
    if (!allowed(path))
      problems.push(`${path} is packed but is not a built file, README, LICENSE or package.json`);
    if (/(^|\/)(testing|src)\/|\.test\.|\.test-d\./.test(path))
      problems.push(`${path} is test or source code`);
  }
  for (const required of ['package.json', 'README.md', 'LICENSE']) {
    if (!files.includes(required)) problems.push(`${required} is not packed`);
  }
  const targets = Object.entries(manifest.exports).flatMap(([entry, target]) =>
    typeof target === 'string' ? [[entry, target]] : Object.values(target).map((path) => [entry, path]),
  );
  for (const [entry, target] of targets) {
    if (!files.includes(target.replace(/^\.\//, '')))
      problems.push(`exports["${entry}"] names ${target}, not packed`);
  }
  // npm packs the manifest as it is (no `publishConfig.exports`): it must give the same files and entries (of
  // the build pnpm's `prepack` just made).
  mkdirSync(join(work, 'npm'));
  const [npmPacked] = JSON.parse(
    run('npm', ['pack', '--ignore-scripts', '--pack-destination', join(work, 'npm'), '--json']),
  );
  const npmFiles = npmPacked.files.map((file) => file.path).sort();
  if (npmFiles.join() !== files.join()) problems.push(`npm packs other files: ${npmFiles.join(', ')}`);
  run('tar', ['-xzf', join(work, 'npm', npmPacked.filename), '-C', join(work, 'npm')]);
  const npmManifest = JSON.parse(readFileSync(join(work, 'npm', 'package', 'package.json'), 'utf8'));
  if (JSON.stringify(npmManifest.exports) !== JSON.stringify(manifest.exports))
    problems.push('npm packs other exports than pnpm');
  const entries = targets.filter(([, target]) => /^\.\/dist\/[^/]+\.js$/.test(target)).length;
  if (entries !== 3) problems.push(`expected the index, express and hono entries, found ${entries}`);

  console.log(`packed ${files.length} files, ${(packed.size / 1024).toFixed(1)} KB`);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  } else {
    process.stdout.write(run('publint', ['run', unpacked, '--strict', '--pack', 'false']));
    process.stdout.write(run('attw', [packed.filename, '--profile', 'esm-only']));
    // The package's own name resolves through node_modules, with what it declares installed beside it.
    const modules = join(work, 'node_modules');
    mkdirSync(join(modules, '@esim-embed'), { recursive: true });
    symlinkSync(unpacked, join(modules, '@esim-embed', 'partner'));
    for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)])
      symlinkSync(join(root, 'node_modules', name), join(modules, name));
    run(process.execPath, ['--input-type=module', '-e', SMOKE], work);
    console.log('the packed entries load, sign and verify');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
