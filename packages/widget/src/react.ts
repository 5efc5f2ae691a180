/**
 * @module
 * `@esim-embed/widget/react`: `<esim-widget>` in React 19's JSX. Import it once for its types:
 * `import type {} from '@esim-embed/widget/react';` (needs `@types/react` 19).
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { EsimWidgetElement } from './element/esim-widget.element';
import type { EsimWidgetAttributes, EsimWidgetEventHandlers } from './element/jsx-attributes.gen';

/** The props of `<esim-widget>` in React. */
export type EsimWidgetReactProps = Omit<
  DetailedHTMLProps<HTMLAttributes<EsimWidgetElement>, EsimWidgetElement>,
  keyof EsimWidgetAttributes
> &
  EsimWidgetAttributes &
  EsimWidgetEventHandlers;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'esim-widget': EsimWidgetReactProps;
    }
  }
}
