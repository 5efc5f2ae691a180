/**
 * @module
 * Fetches a lazily loaded chunk and the chunks it imports at the same time. A browser learns a module's
 * imports only once the module has arrived, so `import('./app.js')` of a chunk that imports two shared
 * chunks costs two round trips; on a slow phone's network each is 150 ms or more. Vite's own answer
 * (`<link rel="modulepreload">`) is not part of a library build, so this plugin does the same with
 * `import()` itself: every dynamic import in the script-tag build also starts, beside it, the chunks its
 * target imports that the importing chunk has not loaded already. The browser's module map fetches each
 * file once; a failed side fetch is left to the import that needs it.
 */
import type { Plugin, Rolldown } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

/** The chunk files `fileName` loads before it runs: its static imports, transitively (itself excluded). */
function staticClosure(chunks: Map<string, OutputChunk>, fileName: string, into = new Set<string>()) {
  for (const imported of chunks.get(fileName)?.imports ?? []) {
    if (into.has(imported)) continue;
    into.add(imported);
    staticClosure(chunks, imported, into);
  }
  return into;
}

/** `to` relative to the folder of `from`, as an import specifier (both are output file names). */
function specifier(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  while (fromParts.length > 0 && fromParts[0] === toParts[0]) {
    fromParts.shift();
    toParts.shift();
  }
  return fromParts.length === 0
    ? `./${toParts.join('/')}`
    : `${'../'.repeat(fromParts.length)}${toParts.join('/')}`;
}

/** The Vite plugin that starts a dynamic import's own imports beside it. */
export function parallelImportsPlugin(): Plugin {
  return {
    name: 'esim-widget:parallel-imports',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, OutputChunk>();
      for (const output of Object.values(bundle))
        if (output.type === 'chunk') chunks.set(output.fileName, output);
      for (const chunk of chunks.values()) {
        const loaded = staticClosure(chunks, chunk.fileName).add(chunk.fileName);
        for (const target of chunk.dynamicImports) {
          const sideFetches = [...staticClosure(chunks, target)].filter((file) => !loaded.has(file));
          if (sideFetches.length === 0) continue;
          const quoted = new RegExp(
            `import\\((["'\`])${escapeRegExp(specifier(chunk.fileName, target))}\\1\\)`,
            'g',
          );
          const before = sideFetches
            .map((file) => `import(${JSON.stringify(specifier(chunk.fileName, file))}).catch(()=>{}),`)
            .join('');
          const rewritten = chunk.code.replace(quoted, (call: string) => `(${before}${call})`);
          if (rewritten === chunk.code)
            this.error(`${chunk.fileName}: the dynamic import of ${target} was not found in its code`);
          chunk.code = rewritten;
        }
      }
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
