/**
 * @module
 * `<esim-widget>` in Preact's JSX (preact is a dependency of the package, so this is always resolvable).
 */
import type { JSX } from 'preact';
import type { EsimWidgetElement } from './esim-widget.element';
import type { EsimWidgetAttributes, EsimWidgetEventHandlers } from './jsx-attributes.gen';

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'esim-widget': Omit<JSX.HTMLAttributes<EsimWidgetElement>, keyof EsimWidgetAttributes> &
        EsimWidgetAttributes &
        EsimWidgetEventHandlers;
    }
  }
}
