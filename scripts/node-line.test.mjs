/**
 * One Node.js line for production in every document an operator reads: the root README, the release folder's
 * README (its template) and the deployment guide each say "Production: Node.js <line>" with the line
 * `scripts/production-node.mjs` runs the release on (and the Dockerfile's image uses), and "≥ 22.13" for the
 * embedded store; none offers another line for production ("22 or 24").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_NODE_LINE } from './production-node.mjs';

const ROOT = new URL('../', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), 'utf8').replace(/\s+/g, ' ');
const DOCUMENTS = ['README.md', 'scripts/release/README.md', 'docs/deployment.md'];

describe('the Node.js line for production', () => {
  it.each(DOCUMENTS)('%s names the one line, and the embedded store’s minimum', (path) => {
    const text = read(path);
    expect(text).toContain(
      `**Production: Node.js ${PRODUCTION_NODE_LINE}** (the embedded store needs Node.js ≥ 22.13`,
    );
    expect([...text.matchAll(/Production: Node\.js (\d+)/g)].map((match) => Number(match[1]))).toEqual([
      PRODUCTION_NODE_LINE,
    ]);
    expect(text).not.toMatch(/22 or 24|24 or 22|≥ 22\.13\*\* \(24/);
  });

  it('is the line of the release’s Docker image', () => {
    expect(read('scripts/release/Dockerfile')).toContain(`FROM node:${PRODUCTION_NODE_LINE}-slim`);
  });
});
