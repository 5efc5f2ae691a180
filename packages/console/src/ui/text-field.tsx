/**
 * @module
 * A text field under its label, as every form of the console has them: the label names the field (a click on it
 * focuses the field, a screen reader reads it), the field takes what an `<input>` takes.
 */
import type { ComponentChildren, JSX, Ref } from 'preact';
import * as controls from './controls.css';

/** A labelled `<input>`; `inputRef` reaches the input itself (to focus it). */
export function TextField({
  label,
  inputRef,
  ...input
}: { label: ComponentChildren; inputRef?: Ref<HTMLInputElement> } & Omit<
  JSX.InputHTMLAttributes<HTMLInputElement>,
  'class' | 'ref'
>) {
  return (
    <label class={controls.field}>
      {label}
      <input class={controls.input} ref={inputRef} {...input} />
    </label>
  );
}
