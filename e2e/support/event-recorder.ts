/**
 * @module
 * The script that records every widget event on a page, for the suite's `widgetEvents`. Which events exist is
 * read from one source, the widget's Custom Elements Manifest (`custom-elements.json`, generated from the
 * element's `@event` tags): an event the widget gains is recorded without this file changing.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface ManifestEvent {
  name: string;
}
interface ManifestDeclaration {
  tagName?: string;
  customElement?: boolean;
  events?: ManifestEvent[];
}
interface Manifest {
  modules: { declarations?: ManifestDeclaration[] }[];
}

/** The names of the events `<esim-widget>` fires, as its manifest lists them. */
function widgetEventTypes(): string[] {
  const path = createRequire(import.meta.url).resolve('@esim-embed/widget/custom-elements.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  const element = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .find((declaration) => declaration.customElement && declaration.tagName === 'esim-widget');
  if (element === undefined) throw new Error('the widget manifest has no <esim-widget>');
  return (element.events ?? []).map((event) => event.name);
}

/** The init script: every widget event fired on the page pushed onto `window.__esimEvents`. */
export function eventRecorderScript(types: readonly string[] = widgetEventTypes()): string {
  return `(() => {
  window.__esimEvents = window.__esimEvents || [];
  for (const type of ${JSON.stringify(types)}) {
    document.addEventListener(type, (event) => {
      const source = event.composedPath()[0];
      window.__esimEvents.push({
        type,
        detail: event.detail,
        widgetId: source && source.getAttribute ? source.getAttribute('widget-id') : null,
      });
    });
  }
})();`;
}
