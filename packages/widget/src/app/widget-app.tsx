/**
 * @module
 * The app chunk's entry: adopts the widget's stylesheet into the element's shadow root and renders the
 * Preact app there. Loaded by the element when it first connects.
 */

import styles from 'virtual:esim-widget-styles';
import { render } from 'preact';
import type { EarlyStart } from '../api/early-start';
import { constructStyleSheet } from './brand-sheet';
import { type WidgetAppOptions, WidgetShell } from './widget-shell';

export type { WidgetAppOptions };

/** The app mounted in one element. */
export interface MountedWidgetApp {
  update(options: WidgetAppOptions): void;
  /** Unmounts, aborting every request in flight. */
  unmount(): void;
}

let widgetSheet: CSSStyleSheet | null = null;

/**
 * Mounts the app into `root` (the shadow root of `host`). The stylesheet is parsed now and the app drawn in
 * the next task: two short tasks on the partner's page instead of one long one. An `update` before then
 * only changes what will be drawn; `unmount` cancels it. `earlyStart`: the start the element already sent.
 */
export function mountWidgetApp(
  root: ShadowRoot,
  host: HTMLElement,
  options: WidgetAppOptions,
  earlyStart: EarlyStart | null = null,
): MountedWidgetApp {
  // One parsed stylesheet shared by every widget on the page.
  widgetSheet ??= constructStyleSheet(styles);
  const brandSheet = constructStyleSheet('');
  root.adoptedStyleSheets = [widgetSheet, brandSheet];
  let latest = options;
  const draw = () =>
    render(
      <WidgetShell
        // A different widget or BFF is a different store: start afresh (the old requests are aborted).
        key={`${latest.apiBase} ${latest.widgetId}`}
        host={host}
        options={latest}
        brandSheet={brandSheet}
        earlyStart={earlyStart}
      />,
      root,
    );
  let firstDraw: ReturnType<typeof setTimeout> | null = setTimeout(() => {
    firstDraw = null;
    draw();
  }, 0);
  return {
    update(next) {
      latest = next;
      if (firstDraw === null) draw();
    },
    unmount() {
      if (firstDraw !== null) clearTimeout(firstDraw);
      firstDraw = null;
      render(null, root);
      root.adoptedStyleSheets = [];
    },
  };
}
