// @vitest-environment node
/**
 * The editors' data shipped in the package (`vscode.html-custom-data.json`, `web-types.json`) is the one
 * generated from the committed Custom Elements Manifest and `package.json`, and describes every attribute,
 * event, part and custom property the manifest has.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  readPackageInfo,
  renderVscodeCustomData,
  renderWebTypes,
  VSCODE_DATA_PATH,
  WEB_TYPES_PATH,
} from './generate-editor-data.mjs';
import { readManifest } from './manifest-element.mjs';

interface Named {
  name: string;
}
const manifest = readManifest();
const info = readPackageInfo();
const element = (
  manifest as { modules: { declarations?: (Named & Record<string, Named[] | string | boolean>)[] }[] }
).modules
  .flatMap((module) => module.declarations ?? [])
  .find((declaration) => declaration.customElement) as unknown as Record<
  'attributes' | 'events' | 'cssParts' | 'cssProperties',
  Named[]
>;
const names = (items: Named[]) => items.map((item) => item.name);

it('ships editor data generated from the manifest (run `pnpm manifest` after changing the element)', () => {
  expect(readFileSync(VSCODE_DATA_PATH, 'utf8')).toBe(renderVscodeCustomData(manifest, info));
  expect(readFileSync(WEB_TYPES_PATH, 'utf8')).toBe(renderWebTypes(manifest, info));
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  expect(packageJson['web-types']).toBe('./web-types.json');
  expect(packageJson.files).toEqual(
    expect.arrayContaining(['web-types.json', 'vscode.html-custom-data.json']),
  );
});

it('gives VS Code every attribute, the values of the enumerated ones, and the events, parts and properties', () => {
  const [tag] = JSON.parse(renderVscodeCustomData(manifest, info)).tags;
  expect(tag.name).toBe('esim-widget');
  expect(names(tag.attributes)).toEqual(names(element.attributes));
  const theme = tag.attributes.find((attribute: Named) => attribute.name === 'theme');
  expect(names(theme.values)).toEqual(['light', 'dark', 'auto']);
  for (const name of [...names(element.events), ...names(element.cssProperties)]) {
    expect(tag.description.value).toContain(`\`${name}\``);
  }
  for (const name of names(element.cssParts)) expect(tag.description.value).toContain(`::part(${name})`);
});

it('gives JetBrains IDEs the attributes, events, parts and custom properties', () => {
  const webTypes = JSON.parse(renderWebTypes(manifest, info));
  expect(webTypes).toMatchObject({ name: '@esim-embed/widget', version: info.version });
  const [widget] = webTypes.contributions.html.elements;
  expect(names(widget.attributes)).toEqual(names(element.attributes));
  expect(widget.attributes[0]).toMatchObject({ name: 'widget-id', required: true });
  expect(names(widget.js.events)).toEqual(names(element.events));
  expect(names(widget.js.properties)).toEqual([
    'widgetId',
    'apiBase',
    'locale',
    'country',
    'theme',
    'paymentRetry',
  ]);
  expect(names(widget.css.parts)).toEqual(names(element.cssParts));
  expect(names(widget.css.properties)).toEqual(names(element.cssProperties));
});
