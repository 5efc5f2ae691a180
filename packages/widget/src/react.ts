/**
 * @module
 * `@esim-embed/widget/react`: `<EsimWidget>`, the React component that works in React 18 and 19, and the JSX
 * types of `<esim-widget>` itself (its `onesim-*` event props only with React 19's types, the React that binds
 * them). Needs `react` 18 or 19 (an optional peer dependency of the package).
 */
import './element/jsx-react';

export type { EsimWidgetReact18Props, EsimWidgetReactProps } from './element/jsx-react';
export { EsimWidget, type EsimWidgetProps } from './react/esim-widget-component';
