/**
 * @module
 * `@esim-embed/widget/vue`: `<esim-widget>` in Vue 3 templates, typed for vue-tsc and Volar. Import it once for
 * its types (`import type {} from '@esim-embed/widget/vue'`) and tell Vue's compiler that the tag is a custom
 * element (`compilerOptions.isCustomElement`); then `widget-id` is required, `locale` and `theme` take their
 * values only, and `@esim-purchase="…"` gets an `EsimPurchaseEvent`. Needs `vue` 3.3 or later (an optional peer
 * dependency of the package). The shape follows Vue's guide for typing custom elements in templates.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { EsimWidgetElement } from './element/esim-widget.element';
import type { EsimWidgetAttributes, EsimWidgetEventHandlers } from './element/jsx-attributes.gen';

/** The element's events by name (`esim-purchase` → `EsimPurchaseEvent`), from its generated JSX event props. */
export type EsimWidgetEventMap = {
  [Prop in keyof EsimWidgetEventHandlers as Prop extends `on${infer Name}` ? Name : never]-?: Parameters<
    NonNullable<EsimWidgetEventHandlers[Prop]>
  >[0];
};

/** `<esim-widget>` as Vue's template type-checker sees a component: its attributes as props, its events as emits. */
export type EsimWidgetVueComponent = new () => EsimWidgetElement & {
  /** For template type-checking only: not a property of the element. */
  $props: HTMLAttributes & EsimWidgetAttributes & PublicProps;
  /** For template type-checking only: not a method of the element. */
  $emit: EmitFn<{ [Name in keyof EsimWidgetEventMap]: (event: EsimWidgetEventMap[Name]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'esim-widget': EsimWidgetVueComponent;
  }
}
