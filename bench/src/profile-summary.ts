/**
 * @module
 * `tsx src/profile-summary.ts <file.cpuprofile> [top]`: the functions with the most self time in a V8 CPU
 * profile (as `--cpu-prof` writes it), with their file and line — how the bench finds the cause of a miss.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx src/profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
const selfTime = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'}  ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/work\/main\//, '')}:${lineNumber + 1}`;
  selfTime.set(key, (selfTime.get(key) ?? 0) + (node.hitCount ?? 0));
}
for (const [key, hits] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 40))) {
  console.log(`${((hits / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
}
