/**
 * @module
 * Puts an `<esim-widget>` on the test page, talking to a fake BFF, and gives queries scoped to its
 * shadow root.
 */
import { type BoundFunctions, type queries, waitFor, within } from '@testing-library/preact';
import { vi } from 'vitest';
import { defineEsimWidget } from '../src/define';
import type { EsimWidgetElement } from '../src/element/esim-widget.element';
import { ESIM_WIDGET_EVENT_NAMES } from '../src/element/jsx-attributes.gen';
import type { FakeBff } from './fake-bff';

/**
 * How often a waiting query looks again, in ms. The page's document does not see changes inside the shadow root,
 * so testing-library cannot look on each change; its 50 ms default left most tests idle between a step's
 * rendering and the query that waited for it.
 */
export const QUERY_INTERVAL_MS = 10;

/** Resolves once the widget's pending effects ran: Preact runs them after the next frame, in a task. */
export function effectsRun(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** A mounted widget and queries inside its shadow root. */
export interface MountedWidget {
  element: EsimWidgetElement;
  view: BoundFunctions<typeof queries>;
  events: CustomEvent[];
}

/** Mounts a widget (default `widget-id="acme"`, `api-base="https://bff.test"`) and waits for its first step. */
export async function mountWidget(
  bff: FakeBff,
  attributes: Record<string, string> = {},
): Promise<MountedWidget> {
  vi.stubGlobal('fetch', bff.fetch);
  defineEsimWidget();
  const element = document.createElement('esim-widget');
  const events: CustomEvent[] = [];
  for (const name of ESIM_WIDGET_EVENT_NAMES) {
    element.addEventListener(name, (event) => events.push(event as CustomEvent));
  }
  for (const [name, value] of Object.entries({
    'widget-id': 'acme',
    'api-base': 'https://bff.test',
    ...attributes,
  })) {
    element.setAttribute(name, value);
  }
  document.body.append(element);
  await waitFor(
    () => {
      if (!element.shadowRoot?.querySelector('h2, [role="alert"]'))
        throw new Error('the widget has not rendered yet');
    },
    { timeout: 10_000, interval: QUERY_INTERVAL_MS },
  );
  await effectsRun();
  // Queries need an element (not the shadow root): the app's outer box, looked up afresh on every query,
  // and on every retry of a find* query, since the box is replaced when the session arrives.
  const box = () => {
    const root = element.shadowRoot?.firstElementChild;
    if (!(root instanceof HTMLElement)) throw new Error('the widget has no content');
    return within(root);
  };
  const view = new Proxy({} as BoundFunctions<typeof queries>, {
    get(_target, query) {
      if (typeof query === 'string' && query.startsWith('find')) {
        const getter = query.replace(/^find/, 'get');
        // What a find* query found is answered once the widget's effects after that render ran too (listeners
        // added, storage written, focus moved), as a traveller would meet it.
        return async (matcher: unknown, options?: unknown, waitOptions?: Parameters<typeof waitFor>[1]) => {
          const found = await waitFor(
            () => Reflect.apply(Reflect.get(box(), getter), undefined, [matcher, options]),
            { interval: QUERY_INTERVAL_MS, ...waitOptions },
          );
          await effectsRun();
          return found;
        };
      }
      return Reflect.get(box(), query);
    },
  });
  return { element, view, events };
}
