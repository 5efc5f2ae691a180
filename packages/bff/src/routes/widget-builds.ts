/**
 * @module
 * The widget builds the BFF serves, found once at start: a widget root holding one folder per version
 * (`<root>/0.1.0/widget.js`, as the release lays it out; an operator keeps older versions by keeping their
 * folders) and, from the monorepo, one build folder (`packages/widget/dist`) whose version its
 * `integrity.json` names. Versions are ordered by semver precedence; "latest" prefers releases to prereleases.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WIDGET_INTEGRITY_FILE, WidgetIntegritySchema, WidgetVersionSchema } from '@esim-embed/shared';
import type { Logger } from '../logger';

/** One build of the widget's script: `widget.js`, `widget-chunks/` and `integrity.json` in `dir`. */
export interface WidgetBuild {
  version: string;
  dir: string;
}

/** Where the builds are (either may be absent). */
export interface WidgetBuildSources {
  /** A folder holding one folder per version. */
  widgetRoot?: string | null | undefined;
  /** One build folder, its version read from its `integrity.json` (added unless the root has that version). */
  widgetDist?: string | null | undefined;
}

/** The builds found, newest first, and the lookups the script routes make. */
export interface WidgetBuilds {
  /** Every build, newest first. */
  readonly all: readonly WidgetBuild[];
  /** The build of exactly this version (a string from a URL: anything not a version finds nothing). */
  exact(version: string): WidgetBuild | undefined;
  /** The builds of one major version, newest first. */
  ofMajor(major: number): WidgetBuild[];
  /** The latest of `builds` (newest first): the newest release, or the newest prerelease when there is none. */
  latest(builds: readonly WidgetBuild[]): WidgetBuild | undefined;
}

type Parsed = { numbers: [number, number, number]; prerelease: string[] };

function parse(version: string): Parsed | null {
  if (!isVersion(version)) return null;
  const dash = version.indexOf('-');
  const [major = 0, minor = 0, patch = 0] = (dash < 0 ? version : version.slice(0, dash))
    .split('.')
    .map(Number);
  return { numbers: [major, minor, patch], prerelease: dash < 0 ? [] : version.slice(dash + 1).split('.') };
}

/** Semver precedence: > 0 when `a` is newer. */
export function compareVersions(a: string, b: string): number {
  const [left, right] = [parse(a), parse(b)];
  if (left === null || right === null) throw new Error(`not a version: ${left === null ? a : b}`);
  for (let i = 0; i < 3; i++) {
    const difference = (left.numbers[i] ?? 0) - (right.numbers[i] ?? 0);
    if (difference !== 0) return difference;
  }
  // A release is newer than its prereleases; prerelease identifiers compare one by one.
  if (left.prerelease.length === 0 || right.prerelease.length === 0)
    return right.prerelease.length - left.prerelease.length;
  for (let i = 0; i < Math.max(left.prerelease.length, right.prerelease.length); i++) {
    const [x, y] = [left.prerelease[i], right.prerelease[i]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const [xNumeric, yNumeric] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (xNumeric && yNumeric) return Number(x) - Number(y);
    if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether `value` is a version the BFF serves at `/widget@<value>/`. */
export function isVersion(value: string): boolean {
  return WidgetVersionSchema.safeParse(value).success;
}

/** The version a build folder's `integrity.json` names, or null when it has none. */
function versionOfBuild(dir: string): string | null {
  try {
    const integrity = WidgetIntegritySchema.safeParse(
      JSON.parse(readFileSync(join(dir, WIDGET_INTEGRITY_FILE), 'utf8')),
    );
    return integrity.success ? integrity.data.version : null;
  } catch {
    return null;
  }
}

/** Find the builds in `sources`; what cannot be served (no `widget.js`, no version) is logged and skipped. */
export function findWidgetBuilds(sources: WidgetBuildSources, logger: Logger): WidgetBuilds {
  const byVersion = new Map<string, WidgetBuild>();
  const root = sources.widgetRoot;
  if (root) {
    const folders = existsSync(root) ? readdirSync(root, { withFileTypes: true }) : [];
    for (const folder of folders) {
      if (!folder.isDirectory()) continue;
      const dir = join(root, folder.name);
      if (isVersion(folder.name) && existsSync(join(dir, 'widget.js'))) {
        byVersion.set(folder.name, { version: folder.name, dir });
      } else {
        logger.warn('widget root: a folder that is not a widget build is not served', { folder: dir });
      }
    }
  }
  const dist = sources.widgetDist;
  if (dist && existsSync(join(dist, 'widget.js'))) {
    const version = versionOfBuild(dist);
    if (version === null) {
      logger.warn(`widget build without a version (no valid ${WIDGET_INTEGRITY_FILE}): rebuild the widget`, {
        dir: dist,
      });
    } else if (!byVersion.has(version)) {
      byVersion.set(version, { version, dir: dist });
    }
  }
  const all = [...byVersion.values()].sort((a, b) => compareVersions(b.version, a.version));
  return {
    all,
    exact: (version) => (isVersion(version) ? byVersion.get(version) : undefined),
    ofMajor: (major) => all.filter((build) => parse(build.version)?.numbers[0] === major),
    latest: (builds) => builds.find((build) => !build.version.includes('-')) ?? builds[0],
  };
}
