/**
 * @module
 * The app chunk's entry: adopts the widget's stylesheet into the element's shadow root and renders the
 * Preact app there. Loaded by the element when it first connects.
 */

import styles from 'virtual:esim-widget-styles';
import { render } from 'preact';
import { constructStyleSheet } from './brand-sheet';
import { WidgetShell } from './widget-shell';

/** What the element passes to the app; changes are applied with `update`. */
export interface WidgetAppOptions {
  widgetId: string;
  apiBase: string;
  /** The `locale` attribute, or null to follow the page and the browser. */
  locale: string | null;
  /** The `country` attribute, or null for the destination search. */
  country: string | null;
}

/** The app mounted in one element. */
export interface MountedWidgetApp {
  update(options: WidgetAppOptions): void;
  /** Unmounts, aborting every request in flight. */
  unmount(): void;
}

let widgetSheet: CSSStyleSheet | null = null;

/** Mounts the app into `root` (the shadow root of `host`). */
export function mountWidgetApp(
  root: ShadowRoot,
  host: HTMLElement,
  options: WidgetAppOptions,
): MountedWidgetApp {
  // One parsed stylesheet shared by every widget on the page.
  widgetSheet ??= constructStyleSheet(styles);
  const brandSheet = constructStyleSheet('');
  root.adoptedStyleSheets = [widgetSheet, brandSheet];
  const draw = (current: WidgetAppOptions) =>
    render(
      <WidgetShell
        // A different widget or BFF is a different store: start afresh (the old requests are aborted).
        key={`${current.apiBase} ${current.widgetId}`}
        host={host}
        options={current}
        brandSheet={brandSheet}
      />,
      root,
    );
  draw(options);
  return {
    update: draw,
    unmount() {
      render(null, root);
      root.adoptedStyleSheets = [];
    },
  };
}
