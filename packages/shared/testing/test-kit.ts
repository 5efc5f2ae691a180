/**
 * @module
 * Test-only support for the contract tests: read a JSON fixture, change one value at a path, and list the
 * issues a schema reports as `path`/`code` pairs. Not exported from the package.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { z } from 'zod';

const fixturesDir = new URL('../fixtures/', import.meta.url);

/** Names of every JSON fixture, without the extension. */
export function fixtureNames(): string[] {
  return readdirSync(fixturesDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** A fresh copy of `fixtures/<name>.json`. */
export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`${name}.json`, fixturesDir), 'utf8')) as Record<string, unknown>;
}

type Path = readonly (string | number)[];

/** Splits `a.b.0.c` into `['a', 'b', 0, 'c']`. */
export function parsePath(path: string): Path {
  return path === '' ? [] : path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    node = node[key] as Record<string | number, unknown>;
    if (node === null || typeof node !== 'object') throw new Error(`no object at ${path.join('.')}`);
  }
  return node;
}

/** A copy of `value` with `path` set to `next` (or the key removed when `next` is `REMOVE`). */
export function changed(value: unknown, path: string, next: unknown): unknown {
  const copy = structuredClone(value);
  const parts = parsePath(path);
  const last = parts.at(-1);
  if (last === undefined) return next;
  const parent = parentOf(copy, parts);
  if (next === REMOVE) delete parent[last];
  else parent[last] = next;
  return copy;
}

/** Marker for `changed`: remove the key instead of setting it. */
export const REMOVE = Symbol('remove');

/** A reported issue, reduced to what tests assert on. */
export interface IssueSummary {
  path: string;
  code: string;
}

/** The issues `schema` reports for `value` (empty when it parses). */
export function issuesOf(schema: z.ZodType, value: unknown): IssueSummary[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({ path: issue.path.join('.'), code: issue.code }));
}

/** Every path of an object property in `value`, descending into arrays (`a`, `a.b`, `list.0.c`). */
export function propertyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => propertyPaths(item, join(prefix, index)));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [
    join(prefix, key),
    ...propertyPaths(child, join(prefix, key)),
  ]);
}

/** Every path of a plain object in `value`, the root included as `''`. */
export function objectPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => objectPaths(item, join(prefix, index)));
  if (value === null || typeof value !== 'object') return [];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => objectPaths(child, join(prefix, key)))];
}

function join(prefix: string, key: string | number): string {
  return prefix === '' ? String(key) : `${prefix}.${key}`;
}

/** Whether `path` matches `pattern`, where `*` in the pattern stands for one array index. */
export function pathMatches(pattern: string, path: string): boolean {
  const a = pattern.split('.');
  const b = path.split('.');
  return (
    a.length === b.length && a.every((part, i) => part === b[i] || (part === '*' && /^\d+$/.test(b[i] ?? '')))
  );
}
