/**
 * @module
 * Files the BFF serves as they are: the widget's scripts, loadable from any partner page — pinned
 * (`/widget@<version>/…`, immutable), following a major version (`/v<major>/widget.js`) or the latest
 * (`/widget.js`), both cached 5 minutes, with content-hashed chunks cached for a year — and, as a hook for the
 * demo or a partner's own pages, a static site at `/`. Paths are resolved inside their root only.
 */
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { WIDGET_INTEGRITY_FILE } from '@esim-embed/shared';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/app-env';
import type { FoundFile, StaticFiles } from '../http/static-files';
import type { RouteHandlers } from './mount-routes';
import type { WidgetBuild, WidgetBuilds } from './widget-builds';

export interface StaticSiteOptions {
  /** A static site served at `/` (the demo's `demo/dist`); null: nothing is served there. */
  siteRoot: string | null;
  /** How its files are read, kept and compressed. */
  files: StaticFiles;
}

/** The file under `root` for a URL path, or null when it escapes the root, is hidden or does not exist. */
export async function fileUnder(root: string, urlPath: string): Promise<FoundFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((part) => part.startsWith('.'))) return null;
  const base = resolve(root);
  let path = resolve(join(base, decoded));
  if (path !== base && !path.startsWith(base + sep)) return null;
  try {
    let info = await stat(path);
    if (info.isDirectory()) {
      path = join(path, 'index.html');
      info = await stat(path);
    }
    return info.isFile() ? { path, size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** Headers that let any partner page load the widget's scripts (and check their integrity). */
const PUBLIC_SCRIPT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/** A file that never changes under its URL: a pinned version, or a content-hashed chunk. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A URL that follows new versions: a short cache, so that a deploy reaches partner pages within minutes. */
const FOLLOWING = 'public, max-age=300';

/** A parameter that shares its segment with text keeps it (see `honoPath`): `widget@1.2.3` → `1.2.3`. */
function segmentValue(c: Context<AppEnv>, name: string, prefix: string): string {
  const value = c.req.param(name) ?? '';
  return value.startsWith(prefix) ? value.slice(prefix.length) : '';
}

/** Whether a path is one of the widget's script URLs, which any page loads (no widget-API CORS there). */
export function isWidgetScriptPath(path: string): boolean {
  return /^\/v\d+\/widget(\.js$|-chunks\/)/.test(path);
}

/** The widget's script routes, over the builds found at start (see `widget-builds.ts`), their files read by `files`. */
export function widgetAssetHandlers(
  builds: WidgetBuilds,
  files: StaticFiles,
): RouteHandlers<
  | 'widgetBundle'
  | 'widgetChunk'
  | 'widgetOfMajor'
  | 'widgetChunkOfMajor'
  | 'pinnedWidget'
  | 'pinnedWidgetChunk'
  | 'pinnedWidgetIntegrity'
> {
  /** The first of `candidates` (newest first) holding `file`, served with `cacheControl`. */
  async function serveFromBuilds(
    c: Context<AppEnv>,
    candidates: readonly (WidgetBuild | undefined)[],
    file: string,
    cacheControl: string,
  ): Promise<Response> {
    for (const build of candidates) {
      const found = build === undefined ? null : await fileUnder(build.dir, file);
      if (found !== null)
        return await files.answer(c, found, { ...PUBLIC_SCRIPT_HEADERS, 'Cache-Control': cacheControl });
    }
    throw new ApiError('not_found', {
      params: { reason: builds.all.length === 0 ? 'widget_not_built' : 'widget_file_unknown' },
    });
  }

  /** The builds of `/v<major>/…`, newest first; a major nobody built is not found. */
  function ofMajor(c: Context<AppEnv>): WidgetBuild[] {
    const major = segmentValue(c, 'major', 'v');
    const found = /^\d{1,9}$/.test(major) ? builds.ofMajor(Number(major)) : [];
    if (found.length === 0) throw new ApiError('not_found', { params: { reason: 'widget_version_unknown' } });
    return found;
  }

  /** The build of `/widget@<version>/…`; an unknown version is not found. */
  function pinned(c: Context<AppEnv>): WidgetBuild {
    const build = builds.exact(segmentValue(c, 'version', 'widget@'));
    if (build === undefined)
      throw new ApiError('not_found', { params: { reason: 'widget_version_unknown' } });
    return build;
  }

  // A chunk is looked for in every candidate build, newest first: a page that loaded an older `widget.js`
  // (still in its cache after a deploy) finds that version's chunks while their folder is kept.
  const chunk = (c: Context<AppEnv>) => `/widget-chunks/${c.req.param('file') ?? ''}`;

  return {
    widgetBundle: async (c) => await serveFromBuilds(c, [builds.latest(builds.all)], '/widget.js', FOLLOWING),
    widgetChunk: async (c) => await serveFromBuilds(c, builds.all, chunk(c), IMMUTABLE),
    widgetOfMajor: async (c) =>
      await serveFromBuilds(c, [builds.latest(ofMajor(c))], '/widget.js', FOLLOWING),
    widgetChunkOfMajor: async (c) => await serveFromBuilds(c, ofMajor(c), chunk(c), IMMUTABLE),
    pinnedWidget: async (c) => await serveFromBuilds(c, [pinned(c)], '/widget.js', IMMUTABLE),
    pinnedWidgetChunk: async (c) => await serveFromBuilds(c, [pinned(c)], chunk(c), IMMUTABLE),
    pinnedWidgetIntegrity: async (c) =>
      await serveFromBuilds(c, [pinned(c)], `/${WIDGET_INTEGRITY_FILE}`, IMMUTABLE),
  };
}

/**
 * The static site at `/` (the demo): not an API route, so not in the API description. Mount it last, for `GET *`:
 * it answers only what no route did.
 */
export function staticSite(options: StaticSiteOptions): MiddlewareHandler<AppEnv> {
  return async function staticSite(c, next) {
    if (options.siteRoot === null || c.req.path.startsWith('/v1/')) return await next();
    const found = await fileUnder(options.siteRoot, c.req.path);
    if (found === null) return await next();
    const hashed = c.req.path.startsWith('/assets/');
    // Images here may be brand logos (`logoUrl: /partners/…`) shown by the widget on partner pages of other
    // sites; the app-wide `same-site` resource policy would block them there.
    const image = /\.(svg|png|jpe?g|gif|webp)$/i.test(found.path);
    return await options.files.answer(c, found, {
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(image ? { 'Cross-Origin-Resource-Policy': 'cross-origin' } : {}),
    });
  };
}
