/**
 * @module
 * `@esim-embed/widget/vue`: `<esim-widget>` in Vue 3 templates, typed for vue-tsc and Volar. Import it once for
 * its types (`import type {} from '@esim-embed/widget/vue'`) and tell Vue's compiler that the tag is a custom
 * element (`compilerOptions.isCustomElement`); then `widget-id` is required, `locale` and `theme` take their
 * values only, and `@esim-purchase="…"` gets an `EsimPurchaseEvent`. Needs `vue` 3.5 or later (an optional peer
 * dependency of the package). The shape follows Vue's guide on typing custom elements, with the events as
 * listener props (`onEsimPurchase`), which vue-tsc checks.
 */
import type { HTMLAttributes, PublicProps } from 'vue';
import type { EsimWidgetElement } from './element/esim-widget.element';
import type { EsimWidgetAttributes, EsimWidgetEventHandlers } from './element/jsx-attributes.gen';

/** The element's events by name (`esim-purchase` → `EsimPurchaseEvent`), from its generated JSX event props. */
export type EsimWidgetEventMap = {
  [Prop in keyof EsimWidgetEventHandlers as Prop extends `on${infer Name}` ? Name : never]-?: Parameters<
    NonNullable<EsimWidgetEventHandlers[Prop]>
  >[0];
};

/** `widget-id` → `widgetId`: Vue's template type-checker camelizes attribute names as it does component props. */
type Camelized<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camelized<Tail>>}`
  : Name;

/** The element's attributes as Vue's template type-checker names them (`widget-id` as `widgetId`). */
export type EsimWidgetVueProps = {
  [Name in keyof EsimWidgetAttributes as Camelized<Name>]: EsimWidgetAttributes[Name];
};

/** The element's events as Vue's listener props (`@esim-purchase` is `onEsimPurchase`). */
export type EsimWidgetVueListeners = {
  [Name in keyof EsimWidgetEventMap as `on${Capitalize<Camelized<Name>>}`]?: (
    event: EsimWidgetEventMap[Name],
  ) => void;
};

/** `<esim-widget>` as Vue's template type-checker sees a component: attributes and listeners as its props. */
export type EsimWidgetVueComponent = new () => EsimWidgetElement & {
  /** For template type-checking only: not a property of the element. */
  $props: HTMLAttributes & EsimWidgetVueProps & EsimWidgetVueListeners & PublicProps;
};

declare module 'vue' {
  interface GlobalComponents {
    'esim-widget': EsimWidgetVueComponent;
  }
}
