/**
 * @module
 * `integrity.json`, published with every build of the widget's script (`/widget@<version>/integrity.json`):
 * the build's version and the Subresource Integrity of `widget.js` and of each chunk, by path under the build.
 * The widget's build writes it; the BFF reads a build's version from it and serves it.
 */
import { z } from 'zod';

/** The file's name, beside `widget.js`. */
export const WIDGET_INTEGRITY_FILE = 'integrity.json';

/** A widget version as URLs and folders name it: `1.2.3` or `1.2.3-rc.1` (semver without build metadata). */
export const WidgetVersionSchema = z
  .string()
  .regex(
    /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/,
    'a version like 1.2.3 or 1.2.3-rc.1',
  );

/** The whole file. */
export const WidgetIntegritySchema = z.strictObject({
  version: WidgetVersionSchema,
  /** `widget.js` and `widget-chunks/<name>.js` → `sha384-<base64>`, the `integrity` attribute's value. */
  files: z.record(z.string(), z.string().regex(/^sha384-[A-Za-z0-9+/]{64}$/, 'sha384-<base64>')),
});
export type WidgetIntegrity = z.infer<typeof WidgetIntegritySchema>;
