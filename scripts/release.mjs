#!/usr/bin/env node
/**
 * @module
 * `pnpm release`: one folder that runs the BFF on a machine with only Node.js —
 * `release/esim-embed-bff-<version>/` (or under `--out-dir <dir>`) with `server.mjs` (the BFF bundled with every
 * dependency), `widget/<widget version>/` (the widget's script-tag build and its `integrity.json`), `console/`
 * (the partner console's page, served at `/console/` once `console.enabled`),
 * `config.schema.json`, `config.example.json`, a README, a Dockerfile and a compose file, the documents a reseller
 * needs under `docs/` and the deployment files under `deploy/` (`release-docs.mjs`); and the partner SDK and the
 * widget packed for npm (`esim-embed-partner-<version>.tgz`, `esim-embed-widget-<version>.tgz`: what `npm publish`
 * sends the registry), their `sha512` integrity in `packages.json`. The BFF, the widget and the SDK share one
 * version (`scripts/one-version.mjs`); the release refuses to build otherwise.
 *
 * Usage: `node scripts/release.mjs [--out-dir <dir>]`; prints the folder's path last.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { releaseVersion } from './one-version.mjs';
import { copyReleaseDocs } from './release-docs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bffDir = join(root, 'packages/bff');
const widgetDir = join(root, 'packages/widget');
const partnerDir = join(root, 'packages/partner');
const consoleDir = join(root, 'packages/console');
const templates = join(root, 'scripts/release');

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const log = (message) => console.error(`[release] ${message}`);

/** The BFF in one ES module with all its dependencies; fails if anything but Node's built-ins stays outside. */
async function bundleServer(outfile) {
  // esbuild is the BFF package's build tool: resolved from there, as its own `build` script does.
  const esbuild = createRequire(join(bffDir, 'package.json'))('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(bffDir, 'src/server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS dependencies (ioredis, undici) call `require` for Node's built-ins, which an ES module lacks.
    banner: {
      js: "import { createRequire as __esimCreateRequire } from 'node:module';\nconst require = __esimCreateRequire(import.meta.url);",
    },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  // `node:`-only built-ins (`node:sqlite`, which undici loads lazily) are missing from older `builtinModules`.
  const builtin = (path) => path.startsWith('node:') || builtinModules.includes(path);
  const outside = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.external && !builtin(imported.path))
    .map((imported) => imported.path);
  if (outside.length > 0) {
    throw new Error(
      `server.mjs would load from node_modules at run time: ${[...new Set(outside)].join(', ')}`,
    );
  }
  return Object.keys(result.metafile.inputs);
}

/** The licences of the packages bundled into `server.mjs` (their inputs' `node_modules` folders), in one text. */
function thirdPartyNotices(inputs) {
  const packages = new Map();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match !== null) packages.set(resolve(root, match[1]), true);
  }
  const notices = [...packages.keys()].map((dir) => {
    const manifest = readJson(join(dir, 'package.json'));
    const licenseFile = readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\.|$)/i.test(file));
    const text =
      licenseFile === undefined
        ? `(${manifest.license}; no licence file)`
        : readFileSync(join(dir, licenseFile), 'utf8').trim();
    return `${manifest.name}@${manifest.version} (${manifest.license})\n\n${text}`;
  });
  notices.sort();
  return `Packages bundled into server.mjs and their licences.\n\n${notices.join(`\n\n${'-'.repeat(80)}\n\n`)}\n`;
}

/**
 * The widget's script-tag build, taken from the build its npm pack just made (`dist/` without the library build
 * in `dist/lib` and without Vite's manifest, which is for bundlers): the release serves the very bytes it packs,
 * built once.
 */
function takeScriptTagBuild(widgetCopy, outDir) {
  const dist = join(widgetCopy, 'dist');
  cpSync(dist, outDir, {
    recursive: true,
    filter: (source) => !['lib', '.vite'].includes(relative(dist, source)),
  });
  if (!existsSync(join(outDir, 'integrity.json')))
    throw new Error('the widget build wrote no integrity.json');
}

/**
 * A copy of the package in `dir` to build and pack, so that its build never writes the repository's own `dist/`
 * (which the tests and the examples read while a release is built). The copy sits at the same depth in a folder
 * of its own, beside links to what its build reads but never writes: the base tsconfig, the shared package, the
 * dependencies (`node_modules`, the package's and the workspace's). Its `dist/` and `node_modules` are not copied.
 */
function packageCopy(dir, workspace) {
  for (const shared of ['tsconfig.base.json', 'node_modules', 'packages/shared']) {
    if (!existsSync(join(workspace, shared))) {
      mkdirSync(dirname(join(workspace, shared)), { recursive: true });
      symlinkSync(join(root, shared), join(workspace, shared));
    }
  }
  const copy = join(workspace, relative(root, dir));
  cpSync(dir, copy, {
    recursive: true,
    filter: (source) => !['node_modules', 'dist'].includes(relative(dir, source)),
  });
  symlinkSync(join(dir, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

/**
 * The package in `dir` as npm publishes it: built in a copy of its own (its `prepack`, as `npm publish` runs it),
 * then `npm pack` from that copy into `outDir`. Returns its name, version, file and integrity, the integrity
 * checked against the file written, and the copy (removed with `workspace`).
 */
function packForNpm(dir, workspace, outDir) {
  const copy = packageCopy(dir, workspace);
  // As a publish runs it (a test runner's NODE_ENV=test would build the widget's development bundle).
  execFileSync('npm', ['run', 'prepack', '--silent'], {
    cwd: copy,
    stdio: ['ignore', 2, 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', outDir], {
      cwd: copy,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const integrity = `sha512-${createHash('sha512')
    .update(readFileSync(join(outDir, packed.filename)))
    .digest('base64')}`;
  if (integrity !== packed.integrity) throw new Error(`${packed.filename}: npm reported another integrity`);
  return { name: packed.name, version: packed.version, file: packed.filename, integrity, copy };
}

/** `templates/<name>` with `{{key}}` replaced by `values[key]`. */
function fromTemplate(name, values) {
  return readFileSync(join(templates, name), 'utf8').replace(/\{\{(\w+)\}\}/g, (placeholder, key) => {
    if (!(key in values)) throw new Error(`${name}: no value for ${placeholder}`);
    return values[key];
  });
}

async function main() {
  const { values: options } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  const version = releaseVersion();
  const widgetVersion = version;
  const name = `esim-embed-bff-${version}`;
  const out = join(resolve(options['out-dir'] ?? join(root, 'release')), name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  log(`bundling the BFF into ${name}/server.mjs …`);
  const inputs = await bundleServer(join(out, 'server.mjs'));
  writeFileSync(join(out, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(inputs));

  // Generated afresh (the committed copy is kept current by a test, but a release may be cut from a work tree).
  execFileSync(
    join(bffDir, 'node_modules/.bin/tsx'),
    ['scripts/write-config-schema.ts', join(out, 'config.schema.json')],
    { cwd: bffDir, stdio: 'ignore' },
  );
  const example = readJson(join(root, 'docs/examples/bff.config.json'));
  writeFileSync(
    join(out, 'config.example.json'),
    `${JSON.stringify({ ...example, $schema: './config.schema.json' }, null, 2)}\n`,
  );

  log(`packing the partner SDK and the widget for npm into ${name}/ …`);
  // Built in copies of their own: the repository's `packages/*/dist` stay as they are.
  const workspace = mkdtempSync(join(tmpdir(), `${basename(root)}-release-`));
  let packages;
  try {
    packages = [packForNpm(partnerDir, workspace, out), packForNpm(widgetDir, workspace, out)];
    log(`the widget ${widgetVersion}'s script-tag build into ${name}/widget/${widgetVersion}/ …`);
    takeScriptTagBuild(packages[1].copy, join(out, 'widget', widgetVersion));
    packages = packages.map(({ copy, ...packed }) => packed);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
  writeFileSync(join(out, 'packages.json'), `${JSON.stringify({ version, packages }, null, 2)}\n`);
  log(`the partner console's page into ${name}/console/ …`);
  // Built straight into the release: the repository's `packages/console/dist` stays as it is.
  execFileSync(
    join(consoleDir, 'node_modules/.bin/vite'),
    ['build', '--outDir', join(out, 'console'), '--emptyOutDir'],
    { cwd: consoleDir, stdio: ['ignore', 2, 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  const [sdk, widgetPackage] = packages;

  const values = {
    version,
    widgetVersion,
    name,
    sdkFile: sdk.file,
    sdkIntegrity: sdk.integrity,
    widgetFile: widgetPackage.file,
    widgetIntegrity: widgetPackage.integrity,
  };
  for (const file of ['README.md', 'Dockerfile', 'compose.yaml', '.dockerignore']) {
    writeFileSync(join(out, file), fromTemplate(file, values));
  }
  log(`the guides into ${name}/docs/, the nginx and systemd files into ${name}/deploy/ …`);
  copyReleaseDocs({ root, out, version });

  const kb = (path) => `${(statSync(path).size / 1024).toFixed(0)} KB`;
  log(
    `server.mjs ${kb(join(out, 'server.mjs'))}; run it: cd ${relative(process.cwd(), out) || '.'} && node server.mjs`,
  );
  console.log(out);
}

await main();
