/**
 * @module
 * The oldest Node.js the BFF runs on, checked before anything else of it runs: on an older one the start stops
 * with one line naming what to install, rather than failing half-way on an API that Node.js lacks. The server
 * entry imports this module first, so that in the release's bundle (modules run in the order they are imported)
 * its check comes before any other module's code.
 */

/** The oldest Node.js the BFF runs on (the repository's `engines`); production runs Node.js 24. */
export const OLDEST_NODE = { major: 20, minor: 19 } as const;

/** Why Node.js `version` (`process.versions.node`) cannot run the BFF; null when it can. */
export function nodeTooOld(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > OLDEST_NODE.major || (major === OLDEST_NODE.major && minor >= OLDEST_NODE.minor)) return null;
  return (
    `Node.js ${version} is too old for this BFF: it runs on Node.js ${OLDEST_NODE.major}.${OLDEST_NODE.minor} or ` +
    'later, and production on Node.js 24 (docs/deployment.md, "Node.js 24 on the machine").'
  );
}

const problem = nodeTooOld(process.versions.node);
if (problem !== null) {
  console.error(`esim-embed BFF: cannot start.\n${problem}`);
  process.exit(1);
}
