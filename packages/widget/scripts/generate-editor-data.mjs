#!/usr/bin/env node
/**
 * @module
 * Generates the editors' data for `<esim-widget>` from the Custom Elements Manifest, shipped in the package:
 * `vscode.html-custom-data.json` (VS Code's HTML custom data: the tag, its attributes and their values, with
 * the events, parts and custom properties in the tag's description) and `web-types.json` (JetBrains IDEs,
 * named by the `web-types` field: attributes, properties, events, parts and custom properties).
 * `editor-data.test.ts` fails when a committed file is out of date. Run after `cem analyze` (`pnpm manifest`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isRequired, literalValues, manifestElement, readManifest } from './manifest-element.mjs';

const packageRoot = new URL('..', import.meta.url);
export const VSCODE_DATA_PATH = fileURLToPath(new URL('vscode.html-custom-data.json', packageRoot));
export const WEB_TYPES_PATH = fileURLToPath(new URL('web-types.json', packageRoot));

/** The package's name, version and the embed guide's address, from its `package.json`. */
export function readPackageInfo() {
  const { name, version, homepage } = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8'));
  return { name, version, guide: homepage.replace(/#.*$/, '') };
}

/** The README section of each kind of member (GitHub's anchors of its headings). */
const SECTIONS = {
  attributes: 'attributes-and-properties',
  events: 'events',
  parts: 'parts',
  properties: 'css-custom-properties',
};

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
const list = (heading, items) =>
  items.length === 0 ? [] : [`**${heading}**`, '', ...items.map((item) => `- ${item}`), ''];

/** VS Code's HTML custom data (version 1.1) for the element in `manifest`. */
export function renderVscodeCustomData(manifest, { guide }) {
  const element = manifestElement(manifest);
  const description = [
    element.description,
    '',
    ...list(
      'Events',
      element.events.map((event) => `\`${event.name}\` (\`${event.type.text}\`): ${event.description}`),
    ),
    ...list(
      'CSS parts',
      element.cssParts.map((part) => `\`::part(${part.name})\`: ${part.description}`),
    ),
    ...list(
      'CSS custom properties',
      element.cssProperties.map((property) => `\`${property.name}\`: ${property.description}`),
    ),
  ]
    .join('\n')
    .trim();
  return json({
    version: 1.1,
    tags: [
      {
        name: element.tagName,
        description: { kind: 'markdown', value: description },
        attributes: element.attributes.map((attribute) => ({
          name: attribute.name,
          description: attribute.description,
          ...(literalValues(attribute).length > 0
            ? { values: literalValues(attribute).map((value) => ({ name: value })) }
            : {}),
        })),
        references: [{ name: 'Embed guide', url: guide }],
      },
    ],
  });
}

/** JetBrains web-types (2.0) for the element in `manifest`, as the package `name@version` ships it. */
export function renderWebTypes(manifest, { name, version, guide }) {
  const element = manifestElement(manifest);
  const docUrl = (section) => `${guide}#${SECTIONS[section]}`;
  const properties = (element.members ?? []).filter(
    (member) => member.kind === 'field' && !member.static && member.privacy !== 'private',
  );
  return json({
    $schema: 'https://json.schemastore.org/web-types',
    name,
    version,
    'js-types-syntax': 'typescript',
    'description-markup': 'markdown',
    contributions: {
      html: {
        elements: [
          {
            name: element.tagName,
            description: element.description,
            'doc-url': guide,
            source: { module: name, symbol: element.name },
            attributes: element.attributes.map((attribute) => ({
              name: attribute.name,
              description: attribute.description,
              'doc-url': docUrl('attributes'),
              ...(isRequired(attribute) ? { required: true } : {}),
              value: { type: attribute.type?.text ?? 'string' },
            })),
            js: {
              properties: properties.map((property) => ({
                name: property.name,
                description: property.description,
                type: property.type?.text ?? 'string',
              })),
              events: element.events.map((event) => ({
                name: event.name,
                description: event.description,
                'doc-url': docUrl('events'),
                type: event.type.text,
              })),
            },
            css: {
              parts: element.cssParts.map((part) => ({
                name: part.name,
                description: part.description,
                'doc-url': docUrl('parts'),
              })),
              properties: element.cssProperties.map((property) => ({
                name: property.name,
                description: property.description,
                'doc-url': docUrl('properties'),
              })),
            },
          },
        ],
      },
    },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = readManifest();
  const info = readPackageInfo();
  writeFileSync(VSCODE_DATA_PATH, renderVscodeCustomData(manifest, info));
  writeFileSync(WEB_TYPES_PATH, renderWebTypes(manifest, info));
  console.log(`wrote ${VSCODE_DATA_PATH} and ${WEB_TYPES_PATH}`);
}
