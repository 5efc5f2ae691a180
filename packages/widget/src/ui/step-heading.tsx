/**
 * @module
 * A step's heading. When the traveller moves to a step, focus moves to its heading, so that keyboard and
 * screen-reader users continue from the top of the new step (not on the first screen: the widget never
 * steals focus from the host page on load).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useWidget } from '../flow/widget-context';
import { heading } from './step-heading.css';

/** Props of `StepHeading`. */
export interface StepHeadingProps {
  children: ComponentChildren;
}

/** The heading of the current step, focused when the step was reached by navigation. */
export function StepHeading({ children }: StepHeadingProps) {
  const { focusSteps } = useWidget();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusSteps) ref.current?.focus();
  }, [focusSteps]);
  return (
    <h2 ref={ref} class={heading} tabIndex={-1} part="heading">
      {children}
    </h2>
  );
}
