/**
 * @module
 * The rules for the brand's links and logo in a widget's config, each refusal saying why: links are absolute
 * `https://` addresses without a user name or password (the widget opens them from HTTPS pages); a logo is such
 * an address of a PNG, JPEG or GIF (or of no named type), or a path on the BFF's own origin (SVG allowed too).
 */
import { z } from 'zod';

const LOGO_EXTENSION = /\.([a-z0-9]{1,8})$/i;
const CONTRACT_LOGO_TYPE = /^(png|jpe?g|gif)$/i;
const OWN_LOGO_TYPE = /^(png|jpe?g|gif|svg)$/i;
const BFF_PATH = /^\/(?!\/)\S*$/;

/**
 * The support link of the example config (`docs/examples/bff.config.json`, the release's `config.example.json`):
 * a placeholder for the reseller's own page, refused in `live` so that a copied example cannot go live with it.
 */
export const SUPPORT_URL_PLACEHOLDER = 'https://support.example/replace-with-your-support-page';

/** Why `value` is not an allowed brand link (support, terms, privacy), or undefined when it is one. */
export function brandLinkProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not an absolute URL: write it in full, like https://acme.example/terms`;
  }
  if (url.protocol !== 'https:') {
    return (
      `"${value}" is not HTTPS: brand links must start with https:// (travellers open them from the widget on ` +
      'HTTPS pages), also in test and on 127.0.0.1; serve the page over HTTPS or leave the field out'
    );
  }
  if (url.username || url.password) return `"${value}" carries a user name or password: remove them`;
  return undefined;
}

/**
 * Why `value` is not an allowed logo, or undefined when it is one. An HTTPS address names a PNG, JPEG or GIF, or no
 * type at all (the host decides); a path on the BFF names a PNG, JPEG, GIF or SVG (an SVG is safe only from the
 * BFF's own files). The same rule as the brand's check before it reaches a browser (`catalog/brand.ts`).
 */
export function logoProblem(value: string): string | undefined {
  const path = BFF_PATH.test(value);
  const problem = path ? undefined : brandLinkProblem(value);
  if (problem) return `${problem} (a logo may also be a path on the BFF, like /brand/logo.svg)`;
  const pathname = path ? (value.split(/[?#]/)[0] ?? '') : new URL(value).pathname;
  const extension = LOGO_EXTENSION.exec(pathname.split('/').pop() ?? '')?.[1];
  if (path && (extension === undefined || !OWN_LOGO_TYPE.test(extension))) {
    return `"${value}" is not a PNG, JPEG, GIF or SVG file (a logo on the BFF must end in .png, .jpg, .jpeg, .gif or .svg)`;
  }
  if (!path && extension !== undefined && !CONTRACT_LOGO_TYPE.test(extension)) {
    return (
      `"${value}" is a .${extension} file: a logo from another host must be a PNG, JPEG or GIF (or name no type); ` +
      'serve an SVG from the BFF (a path like /brand/logo.svg)'
    );
  }
  return undefined;
}

/** A zod string checked by `rule`, refused with the rule's reason. */
export function checkedBy(rule: (value: string) => string | undefined) {
  return z.string().superRefine((value, ctx) => {
    const problem = rule(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
}
