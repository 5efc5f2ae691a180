/**
 * @module
 * `<EsimWidget>`: `<esim-widget>` as a React component that behaves the same in React 18 and 19. React 18 sets a
 * custom element's props as attributes and never listens to its custom events, so the component renders the
 * element with its attributes and adds each `onesim-*` handler with `addEventListener` through a ref, removing
 * it again when the handler changes or the component unmounts.
 */
import {
  type CSSProperties,
  createElement,
  type ForwardedRef,
  forwardRef,
  useCallback,
  useEffect,
  useRef,
} from 'react';
import type { EsimWidgetElement } from '../element/esim-widget.element';
import {
  ESIM_WIDGET_EVENT_NAMES,
  type EsimWidgetAttributes,
  type EsimWidgetEventHandlers,
} from '../element/jsx-attributes.gen';

/** The props of `<EsimWidget>`: the element's attributes, its `onesim-*` event handlers, and where it sits. */
export type EsimWidgetProps = EsimWidgetAttributes &
  EsimWidgetEventHandlers & {
    id?: string;
    className?: string;
    style?: CSSProperties;
  };

function assignRef<T>(ref: ForwardedRef<T>, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

/**
 * `<esim-widget>` for React 18 and 19, with typed `onesim-*` event props. Define the element first
 * (`import '@esim-embed/widget/define'`); the ref is the `EsimWidgetElement`.
 *
 * @example
 * import '@esim-embed/widget/define';
 * import { EsimWidget } from '@esim-embed/widget/react';
 *
 * <EsimWidget widget-id="acme" api-base="https://bff.example.com"
 *   onesim-purchase={(event) => showReceipt(event.detail.checkoutId)} />
 */
export const EsimWidget = forwardRef<EsimWidgetElement, EsimWidgetProps>(function EsimWidget(props, ref) {
  const element = useRef<EsimWidgetElement | null>(null);
  const setElement = useCallback(
    (node: EsimWidgetElement | null) => {
      element.current = node;
      assignRef(ref, node);
    },
    [ref],
  );
  // One entry per event the element fires, in a fixed order: the effect below re-runs when any handler changes.
  const handlers = ESIM_WIDGET_EVENT_NAMES.map((name) => props[`on${name}`]);

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const listeners = ESIM_WIDGET_EVENT_NAMES.flatMap((name, index) => {
      const handler = handlers[index];
      return handler ? [[name, handler as EventListener] as const] : [];
    });
    for (const [name, listener] of listeners) target.addEventListener(name, listener);
    return () => {
      for (const [name, listener] of listeners) target.removeEventListener(name, listener);
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: the handlers, one per event name, in a fixed order.
  }, handlers);

  return createElement('esim-widget', {
    ref: setElement,
    'widget-id': props['widget-id'],
    'api-base': props['api-base'],
    locale: props.locale,
    country: props.country,
    theme: props.theme,
    'payment-retry': props['payment-retry'],
    id: props.id,
    // React 18 would set `className` on a custom element as a `classname` attribute; `class` works in 18 and 19.
    class: props.className,
    style: props.style,
  });
});
