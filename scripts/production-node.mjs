/**
 * @module
 * A Node.js of the production line (the README recommends a supported LTS for the BFF) beside the Node.js the
 * project's commands run on: `node scripts/production-node.mjs` prints the path of its binary, fetching it once
 * into `.runtime/` (git-ignored) from the npm registry's `node-<platform>-<arch>` package (Node.js's own build,
 * published there; this workplace reaches no other download site). The benchmarks run the servers on it, as
 * production would. Exits non-zero, saying why, when it cannot be had.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The line production runs (Active LTS in 2026). */
export const PRODUCTION_NODE_LINE = 24;

const ROOT = fileURLToPath(new URL('../.runtime/', import.meta.url));

/** The binary's path, fetched on first use. */
export function productionNode() {
  const folder = `${ROOT}node-${PRODUCTION_NODE_LINE}`;
  const binary = `${folder}/package/bin/node`;
  if (existsSync(binary)) return binary;
  const name = `node-${platform()}-${arch()}@${PRODUCTION_NODE_LINE}`;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  execFileSync('npm', ['pack', name, '--silent', '--pack-destination', folder], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(folder).find((file) => file.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack ${name} left no tarball`);
  execFileSync('tar', ['-xzf', tarball], { cwd: folder });
  rmSync(`${folder}/${tarball}`);
  if (!existsSync(binary)) throw new Error(`${name} has no bin/node`);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(productionNode());
  } catch (error) {
    console.error(
      `No Node.js ${PRODUCTION_NODE_LINE} for the benchmarks: ${error instanceof Error ? error.message : error}`,
    );
    process.exit(1);
  }
}
