// @vitest-environment node
/**
 * The committed Custom Elements Manifest describes the element as it is (its observed attributes, its
 * events, parts and custom properties), and the committed JSX types are the ones generated from it.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as deviceCheckEvent from '../src/device-check-event';
import { EsimWidgetElement } from '../src/element/esim-widget.element';
import * as events from '../src/events';
import { MANIFEST_PATH, OUTPUT_PATH, renderJsxTypes } from './generate-jsx-types.mjs';

interface ManifestElement {
  tagName: string;
  attributes: { name: string }[];
  events: { name: string; type: { text: string } }[];
  cssParts: { name: string }[];
  cssProperties: { name: string }[];
}

const manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as {
  modules: { declarations?: (Partial<ManifestElement> & { customElement?: boolean })[] }[];
};
const element = manifest.modules
  .flatMap((module) => module.declarations ?? [])
  .find((declaration) => declaration.customElement) as ManifestElement;

it('lists the element’s observed attributes and its event classes', () => {
  expect(element.tagName).toBe('esim-widget');
  expect(element.attributes.map((attribute) => attribute.name)).toEqual([
    ...EsimWidgetElement.observedAttributes,
  ]);
  const classes = Object.values({ ...events, ...deviceCheckEvent }).filter(
    (value): value is typeof events.EsimReadyEvent => typeof value === 'function' && 'eventName' in value,
  );
  expect(element.events.map((event) => [event.name, event.type.text]).sort()).toEqual(
    classes.map((eventClass) => [eventClass.eventName, eventClass.name]).sort(),
  );
});

it('documents the parts and custom properties the styles use', () => {
  const sources = [
    'src/app/widget-shell.tsx',
    'src/ui/error-notice.tsx',
    'src/install/qr-code.tsx',
    'src/steps/plans-step.tsx',
    'src/device-check/device-check.tsx',
  ];
  const used = new Set(
    sources.flatMap((file) =>
      [...readFileSync(new URL(`../${file}`, import.meta.url), 'utf8').matchAll(/part="([^"]+)"/g)].flatMap(
        (match) => (match[1] ?? '').split(' '),
      ),
    ),
  );
  const documented = new Set(element.cssParts.map((part) => part.name));
  for (const part of used) expect(documented, part).toContain(part);
  const theme = readFileSync(new URL('../src/theme/theme.css.ts', import.meta.url), 'utf8');
  for (const property of element.cssProperties) {
    expect(theme, property.name).toContain(`'${property.name.replace('--esim-', '')}'`);
  }
});

it('has JSX types generated from the manifest (run scripts/generate-jsx-types.mjs after cem analyze)', () => {
  expect(readFileSync(OUTPUT_PATH, 'utf8')).toBe(renderJsxTypes(manifest));
});
