/**
 * @module
 * The repo's dependency rule, read from the import specifiers of every source file (static, `export … from`,
 * dynamic `import()`, `vi.mock()`, `require()`, and `new URL('…', import.meta.url)` paths):
 * `shared` imports nothing of ours; the runtime code of `shared`, `sandbox`, `bff`, `widget`, `partner` and `console` imports
 * only `shared`, so none imports another's; a package reaches another only by its name and an entry of
 * its `exports`, never by a relative path; production files never import test support (a package's
 * `testing/` folder, `./testing` export or a tsconfig `paths` name for it, test files, test runners), and no
 * test support lives in a runtime package's `src/`; a tsconfig `paths` name may lead into another package only
 * to its `testing/` folder or as that package's own name; `shared`'s runtime code does no I/O (no Node
 * built-ins).
 *
 * Folders do not loop: in each package of `LAYERED_SOURCES` (`packages/bff/src`, `packages/widget/src`) the
 * top-level folders (and each file directly in `src/`, as its own node) form a graph by the imports of runtime
 * files (tests and test support do not count; `import type` does, a type is a dependency too); no two nodes may
 * reach each other, directly or around a loop. Each loop is reported once, as its strongly connected component,
 * with one import (file:line → file) for every edge inside it, so a maintainer sees what to cut.
 * Files do not loop either: in the `src/` of every runtime package, no two files reach each other by imports.
 * Files stay short: a production file of a runtime package's `src/` over 300 lines is two concerns to split, or
 * says in its `@module` header, on a line of its own, why it is whole (`Over 300 lines: …`).
 * Layers: a node imports only from its own layer or those below (`LAYERED_SOURCES`; a node in none is held by the
 * loop rule alone). The layers, lowest first (docs/architecture.md draws them):
 *   BFF: shared helpers (`errors.ts`, `log-redaction.ts`, `logger.ts`, `backoff.ts`, `background-loop.ts`, `background-stop.ts`) →
 *   `store/` → `security/` → `config/` → `upstream/` → the domain (`catalog/` → `widgets/` → `checkout/` →
 *   `webhooks/` → `funding/` → `after-sale/` → `mail/` → `support-desk/` → `sales-ledger/` → `privacy/`) → `http/` → `observability/` → `routes/` →
 *   `console/` (the partner console, a feature built on the routes' helpers) → `app.ts`, `operations-app.ts`, `bff.ts`, `node-server.ts`, `server.ts`. Lower layers never import `routes/`; a checkout's changes of status
 *   are owned by `checkout/checkout-transitions.ts`, and funding and webhooks react to them through the observers
 *   and ports it is given instead of the checkout importing them.
 *   Widget: `i18n/`, `theme/`, `api/`, `events.ts`, `device-check-event.ts` → `errors/`, `flow/`, `hooks/`, `ui/`,
 *   `device-check/` → `steps/` → `install/` → `my-esim/` → `app/` → `element/` (which loads the app lazily) → the
 *   entries (`define.ts`, `widget.ts`, …).
 *
 * Dependency-free on purpose: dependency-cruiser reads TypeScript through the `typescript` compiler API, which
 * the TypeScript 7 native compiler used here does not offer.
 *
 * Usage: `node scripts/dependency-rules.mjs [repoRoot]` prints every breach and exits 1 if there is one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `src/` folders whose top-level folders must not import each other around a loop, each with its layers,
 * lowest first: a node (`name/` for a folder, `name.ts` for a file directly in `src/`) imports only from its own
 * layer or those below. A node in no layer is held by the loop rule alone.
 */
const LAYERED_SOURCES = {
  'packages/bff/src': [
    ['errors.ts', 'log-redaction.ts', 'logger.ts', 'backoff.ts', 'background-loop.ts', 'background-stop.ts'],
    ['store/'],
    ['security/'],
    ['config/'],
    ['upstream/'],
    ['catalog/'],
    ['widgets/'],
    ['checkout/'],
    ['webhooks/'],
    ['funding/'],
    ['after-sale/'],
    ['mail/'],
    ['support-desk/'],
    ['sales-ledger/'],
    ['privacy/'],
    ['http/'],
    ['observability/'],
    ['routes/'],
    ['console/'],
    ['app.ts', 'operations-app.ts', 'bff-options.ts', 'bff.ts', 'node-server.ts', 'server.ts', 'index.ts'],
  ],
  'packages/widget/src': [
    ['i18n/', 'theme/', 'api/', 'events.ts', 'device-check-event.ts', 'csp/'],
    ['errors/', 'flow/', 'hooks/', 'ui/', 'device-check/'],
    ['steps/'],
    ['install/'],
    ['my-esim/'],
    ['app/'],
    ['element/'],
    ['define.ts', 'auto-define.ts', 'widget.ts', 'index.ts', 'react/', 'react.ts', 'vue.ts'],
  ],
};
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'dist',
  '.git',
  'reports',
  'test-results',
  'playwright-report',
  // `pnpm release`'s output: bundles of what the rules already checked in the sources.
  'release',
]);
/** Packages whose `src/` is runtime code shipped to a server or a browser. */
const RUNTIME_PACKAGES = new Set([
  '@esim-embed/shared',
  '@esim-embed/sandbox',
  '@esim-embed/bff',
  '@esim-embed/widget',
  '@esim-embed/partner',
  '@esim-embed/console',
]);
/** The lines a production file may have before it is split, or says why it is whole. */
const LONG_FILE_LINES = 300;
/**
 * The `@module` header's line that says why a longer file is whole (as the files written before the rule said it):
 * `Over 300 lines: one view per contract resource, so every resource is rendered in one place.`
 */
const WHY_WHOLE = /^[ \t]*\*[ \t]*Over 300 lines: \S/m;
/** Libraries only tests may load. */
const TEST_LIBRARIES = /^(vitest|@vitest\/|@testing-library\/|happy-dom|@playwright\/test|fast-check)($|\/)/;

/** The workspace's packages: folder (relative to the root, `.` for the root) → name and `exports` keys. */
function workspacePackages(root) {
  const folders = ['.'];
  const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  for (const [, pattern] of workspace.matchAll(/^\s+-\s+['"]?([^'"\n]+?)['"]?\s*$/gm)) {
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
        if (entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json'))) {
          folders.push(`${parent}/${entry.name}`);
        }
      }
    } else if (existsSync(join(root, pattern, 'package.json'))) {
      folders.push(pattern);
    }
  }
  return folders.map((folder) => {
    const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
    const exports =
      manifest.exports === undefined
        ? []
        : typeof manifest.exports === 'string'
          ? ['.']
          : Object.keys(manifest.exports);
    return { folder, name: manifest.name, exports, aliases: pathAliases(root, folder) };
  });
}

/**
 * The names the package's own tsconfig.json maps in `compilerOptions.paths` (`extends` is not followed; the
 * shared base maps none): name → the files they lead to, relative to the root. Full-line comments allowed.
 */
function pathAliases(root, folder) {
  const file = join(root, folder, 'tsconfig.json');
  if (!existsSync(file)) return new Map();
  const tsconfig = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
  return new Map(
    Object.entries(tsconfig.compilerOptions?.paths ?? {}).map(([alias, targets]) => [
      alias,
      targets.map((target) =>
        relative(root, resolve(root, folder, target))
          .split(sep)
          .join('/'),
      ),
    ]),
  );
}

/** Every source file under `folder`, relative to the root. */
function sourceFiles(root, folder = '.') {
  const files = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = folder === '.' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.'))
        files.push(...sourceFiles(root, path));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.d.mts')) {
      files.push(path);
    }
  }
  return files;
}

/** The specifiers a source text imports, with their line numbers; comment lines are skipped. */
export function importSpecifiers(text) {
  const found = [];
  const lineOf = (index) => text.slice(0, index).split('\n').length;
  const isComment = (index) => {
    const lineStart = text.lastIndexOf('\n', index) + 1;
    return /^\s*(\*|\/\/|\/\*)/.test(text.slice(lineStart, index + 1));
  };
  const patterns = [
    /^[ \t]*(?:import|export)\b[^'";]*?\bfrom\s*(['"])([^'"\n]+)\1/gm,
    /^[ \t]*import\s*(['"])([^'"\n]+)\1/gm,
    /\b(?:import|require|vi\.mock|vi\.doMock|vi\.importActual)\s*\(\s*(['"`])([^'"`\n$]+)\1/g,
    /\bnew\s+URL\(\s*(['"`])(\.{1,2}\/[^'"`\n$]*)\1\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const [kind, pattern] of patterns.entries()) {
    for (const match of text.matchAll(pattern)) {
      if (isComment(match.index)) continue;
      found.push({ index: match.index, specifier: match[2], line: lineOf(match.index), path: kind === 3 });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Is `file` (relative to its package folder) test support or a test, rather than production code? */
function isTestCode(pathInPackage) {
  return (
    /(^|\/)testing\//.test(pathInPackage) ||
    /\.(test|spec|test-d)\.[cm]?[jt]sx?$/.test(pathInPackage) ||
    /(^|\/)vitest\.config\.[cm]?[jt]s$/.test(pathInPackage)
  );
}

/** Every breach of the rule in the repo at `root`, as `file:line: what`. */
export function dependencyBreaches(root) {
  const packages = workspacePackages(root).sort((a, b) => b.folder.length - a.folder.length);
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const ownerOf = (path) =>
    packages.find((pkg) => pkg.folder === '.' || path === pkg.folder || path.startsWith(`${pkg.folder}/`));
  const inPackage = (pkg, path) => (pkg.folder === '.' ? path : path.slice(pkg.folder.length + 1));
  const exported = (pkg, subpath) =>
    pkg.exports.some((key) =>
      key.includes('*') ? subpath.startsWith(key.slice(0, key.indexOf('*'))) : key === subpath,
    );

  const breaches = [];
  for (const file of sourceFiles(root)) {
    const owner = ownerOf(file);
    const ownPath = inPackage(owner, file);
    const production = RUNTIME_PACKAGES.has(owner.name)
      ? ownPath.startsWith('src/') && !isTestCode(ownPath)
      : owner.name === '@esim-embed/demo' && !isTestCode(ownPath) && !ownPath.endsWith('.config.ts');
    if (RUNTIME_PACKAGES.has(owner.name) && /^src\/(.*\/)?testing\//.test(ownPath)) {
      breaches.push(`${file}: test support inside runtime src/; it belongs in the package's testing/ folder`);
    }
    const text = readFileSync(join(root, file), 'utf8');
    for (const { specifier, line, path } of importSpecifiers(text)) {
      const at = `${file}:${line}: '${specifier}'`;
      if (specifier.startsWith('.')) {
        const target = relative(root, resolve(root, dirname(file), specifier))
          .split(sep)
          .join('/');
        const targetOwner = ownerOf(target);
        if (targetOwner !== owner) {
          // A file path into another package's folder: only its source and test support count for `new URL`.
          const targetPath = inPackage(targetOwner, target);
          if (!path || /^(src|testing|scripts)(\/|$)/.test(targetPath)) {
            breaches.push(`${at} reaches ${targetOwner.name} by path; import it by name through its exports`);
          }
        } else if (production && !path && isTestCode(inPackage(owner, target))) {
          breaches.push(`${at} is test support imported by production code`);
        }
        continue;
      }
      if (path) continue;
      const aliased = owner.aliases.get(specifier);
      if (aliased) {
        // A tsconfig `paths` name: the files it leads to stand for the import (a package's own name goes on
        // to the checks below).
        for (const target of aliased) {
          const targetOwner = ownerOf(target);
          const targetPath = inPackage(targetOwner, target);
          if (isTestCode(targetPath)) {
            if (production) breaches.push(`${at} is test support imported by production code`);
          } else if (targetOwner !== owner && specifier !== targetOwner.name) {
            breaches.push(
              `${at} reaches ${targetOwner.name} by path through tsconfig paths; import it by name`,
            );
          }
        }
      }
      if (production && owner.name === '@esim-embed/shared' && specifier.startsWith('node:')) {
        breaches.push(`${at}: shared does no I/O and imports no Node built-in`);
      }
      if (production && TEST_LIBRARIES.test(specifier)) {
        breaches.push(`${at} is a test library imported by production code`);
      }
      const name = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : specifier.split('/')[0];
      const target = byName.get(name);
      if (!target) continue;
      const subpath = specifier === name ? '.' : `.${specifier.slice(name.length)}`;
      if (target !== owner && !exported(target, subpath)) {
        breaches.push(`${at} is not an export of ${name}`);
      }
      if (owner.name === '@esim-embed/shared' && target !== owner) {
        breaches.push(`${at}: shared imports nothing of ours`);
      } else if (production && /^\.\/testing(\/|$)/.test(subpath)) {
        breaches.push(`${at} is test support imported by production code`);
      } else if (
        production &&
        RUNTIME_PACKAGES.has(owner.name) &&
        target !== owner &&
        name !== '@esim-embed/shared'
      ) {
        breaches.push(`${at}: ${owner.name} runtime code imports only @esim-embed/shared`);
      }
    }
  }
  for (const [source, layers] of Object.entries(LAYERED_SOURCES)) {
    if (existsSync(join(root, source))) breaches.push(...folderLoops(root, source, layers));
  }
  for (const pkg of packages.filter(({ name }) => RUNTIME_PACKAGES.has(name))) {
    const source = `${pkg.folder}/src`;
    if (existsSync(join(root, source))) breaches.push(...fileLoops(root, source), ...longFiles(root, source));
  }
  return breaches;
}

/**
 * The file a relative specifier leads to, relative to the root (a written `.js` may stand for `.ts`; a folder
 * for its `index`), or undefined when it leads to no source file.
 */
function resolvedSource(root, fromFile, specifier) {
  const base = relative(root, resolve(root, dirname(fromFile), specifier))
    .split(sep)
    .join('/');
  const stem = base.replace(/\.[cm]?[jt]sx?$/, '');
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs'].map((extension) => `${stem}${extension}`),
    ...['ts', 'tsx', 'js'].map((extension) => `${base}/index.${extension}`),
  ];
  return candidates.find((candidate) => SOURCE.test(candidate) && existsSync(join(root, candidate)));
}

/**
 * The imports between the nodes of `source` (a package's `src/`) as node → node → the first import seen that
 * makes the edge (`file:line imports file`), by the runtime files' relative imports; `nodeOf` names a file's
 * node. Tests and test support do not count.
 */
function importEdges(root, source, nodeOf) {
  const edges = new Map();
  for (const file of sourceFiles(root, source).sort()) {
    if (isTestCode(file.slice(source.length + 1))) continue;
    const from = nodeOf(file);
    const text = readFileSync(join(root, file), 'utf8');
    for (const { specifier, line, path } of importSpecifiers(text)) {
      if (path || !specifier.startsWith('.')) continue;
      const target = resolvedSource(root, file, specifier);
      if (!target?.startsWith(`${source}/`) || isTestCode(target.slice(source.length + 1))) continue;
      const to = nodeOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const out = edges.get(from);
      if (!out.has(to)) out.set(to, `${file}:${line} imports ${target}`);
    }
  }
  return edges;
}

/** One breach per loop of `edges` (a strongly connected component of more than one node), named as `what`. */
function loopBreaches(source, edges, what) {
  return stronglyConnected(edges)
    .filter((component) => component.length > 1)
    .map((component) => {
      const members = new Set(component);
      const lines = component.flatMap((from) =>
        [...(edges.get(from) ?? new Map())]
          .filter(([to]) => members.has(to))
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([to, witness]) => `  ${from} → ${to}: ${witness}`),
      );
      return [
        `${source}: ${component.length} ${what} import each other around a loop (${component.join(', ')}); cut one of these imports:`,
        ...lines,
      ].join('\n');
    });
}

/**
 * The import loops between the top-level folders of `source` (a package's `src/`): one breach per strongly
 * connected component of more than one node, listing its nodes and one import for each edge inside it; then
 * one breach per import of a node from a layer above its own (`layers`, lowest first).
 */
export function folderLoops(root, source, layers = []) {
  /** The node of a file under `source`: its top-level folder (`routes/`) or, directly in `src/`, its name. */
  const nodeOf = (file) => {
    const inside = file.slice(source.length + 1);
    const slash = inside.indexOf('/');
    return slash === -1 ? inside : `${inside.slice(0, slash)}/`;
  };
  const edges = importEdges(root, source, nodeOf);
  const layerOf = new Map(layers.flatMap((layer, index) => layer.map((node) => [node, index])));
  const upwards = [...edges]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([from, out]) =>
      [...out]
        .sort(([a], [b]) => a.localeCompare(b))
        .filter(([to]) => layerOf.has(from) && layerOf.has(to) && layerOf.get(to) > layerOf.get(from))
        .map(([to, witness]) => `${source}: ${from} imports ${to}, a layer above it: ${witness}`),
    );
  return [...loopBreaches(source, edges, 'top-level folders'), ...upwards];
}

/**
 * The import loops between the files of `source` (a package's `src/`), wherever they are: two files that need
 * each other are one concern split in two, or a type that belongs below both (`import type` counts).
 */
export function fileLoops(root, source) {
  return loopBreaches(
    source,
    importEdges(root, source, (file) => file.slice(source.length + 1)),
    'files',
  );
}

/**
 * The production files of `source` (a runtime package's `src/`) over {@link LONG_FILE_LINES} lines whose
 * `@module` header does not say why they are whole (a line `Over 300 lines: …`): most such files hold two
 * concerns, to be split.
 */
export function longFiles(root, source) {
  return sourceFiles(root, source)
    .sort()
    .filter((file) => !isTestCode(file.slice(source.length + 1)))
    .flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines <= LONG_FILE_LINES) return [];
      const header = /\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
      if (header.includes('@module') && WHY_WHOLE.test(header)) return [];
      return [
        `${file}: ${lines} lines, over ${LONG_FILE_LINES}: split it by concern, or say in its @module header why it is whole (a line "Over 300 lines: …")`,
      ];
    });
}

/** Tarjan's strongly connected components of a graph given as node → (node → anything); each sorted, in order. */
function stronglyConnected(edges) {
  const nodes = [
    ...new Set([...edges.keys(), ...[...edges.values()].flatMap((out) => [...out.keys()])]),
  ].sort();
  const index = new Map();
  const lowLink = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node), lowLink.get(next)));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node), index.get(next)));
      }
    }
    if (lowLink.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a[0].localeCompare(b[0]));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const breaches = dependencyBreaches(root);
  for (const breach of breaches) console.log(breach);
  console.log(
    breaches.length === 0 ? 'dependency rule: no breach' : `dependency rule: ${breaches.length} breaches`,
  );
  process.exitCode = breaches.length === 0 ? 0 : 1;
}
