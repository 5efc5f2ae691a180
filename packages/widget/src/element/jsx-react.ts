/**
 * @module
 * `<esim-widget>` in React's JSX. With React 19's types the element takes its attributes and the `onesim-*` event
 * props, which React 19 binds as listeners; with React 18's it takes the attributes only, because React 18 sets
 * an unknown prop of a custom element as an attribute and never listens to the event: there, `<EsimWidget>`
 * (`../react/esim-widget-component.ts`) wires the events.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { EsimWidgetElement } from './esim-widget.element';
import type { EsimWidgetAttributes, EsimWidgetEventHandlers } from './jsx-attributes.gen';

/** Whether the installed React types are React 19's or later (`use` is new in 19), which bind custom-element events. */
type ReactBindsCustomElementEvents = 'use' extends keyof typeof import('react') ? true : false;

/** The props of `<esim-widget>` in React 19 (attributes and `onesim-*` event props). */
export type EsimWidgetReactProps = Omit<
  DetailedHTMLProps<HTMLAttributes<EsimWidgetElement>, EsimWidgetElement>,
  keyof EsimWidgetAttributes
> &
  EsimWidgetAttributes &
  EsimWidgetEventHandlers;

/**
 * The props of `<esim-widget>` in React 18: the attributes, and no `onesim-*` props (use `<EsimWidget>` for the
 * events). They are declared `never` because TypeScript accepts any undeclared dashed JSX attribute.
 */
export type EsimWidgetReact18Props = Omit<
  DetailedHTMLProps<HTMLAttributes<EsimWidgetElement>, EsimWidgetElement>,
  keyof EsimWidgetAttributes
> &
  EsimWidgetAttributes & { [Prop in keyof EsimWidgetEventHandlers]?: never };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'esim-widget': ReactBindsCustomElementEvents extends true
        ? EsimWidgetReactProps
        : EsimWidgetReact18Props;
    }
  }
}
