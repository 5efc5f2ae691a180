/**
 * @module
 * A table that may be wider than a phone's screen: it scrolls sideways inside its own box, which the keyboard can
 * reach (a scrolling box nobody can focus is unreadable without a mouse) and which is named for screen readers.
 */
import type { ComponentChildren } from 'preact';
import * as controls from './controls.css';

/** The scrolling box around a table; `label` names it (the table's heading). */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable to scroll it by keyboard
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this groups a table's scrolling
    <div class={controls.tableScroll} tabIndex={0} role="group" aria-label={label}>
      {children}
    </div>
  );
}
