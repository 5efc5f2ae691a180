/**
 * @module
 * Reading `<esim-widget>` out of the Custom Elements Manifest, for the generators that derive from it (the JSX
 * types, the editors' data): the element's declaration, whether an attribute is required, and the values of
 * an attribute typed as a union of string literals.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MANIFEST_PATH = fileURLToPath(new URL('../custom-elements.json', import.meta.url));

/** The committed manifest. */
export function readManifest() {
  return JSON.parse(readFileSync(MANIFEST_PATH, 'utf8'));
}

/** The `<esim-widget>` declaration of `manifest`. */
export function manifestElement(manifest) {
  const element = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .find((declaration) => declaration.customElement && declaration.tagName === 'esim-widget');
  if (!element) throw new Error('custom-elements.json has no <esim-widget>; run `cem analyze` first');
  return element;
}

/** An attribute is required when its JSDoc says so: `@attr {string} widget-id - … (required).` */
export function isRequired(attribute) {
  return /\(required\)/.test(attribute.description ?? '');
}

/** `['light', 'dark']` for an attribute typed `'light' | 'dark'`; `[]` for any other type. */
export function literalValues(attribute) {
  const text = attribute.type?.text ?? '';
  if (!/^'[^']*'(\s*\|\s*'[^']*')*$/.test(text)) return [];
  return [...text.matchAll(/'([^']*)'/g)].map((match) => match[1]);
}
