/**
 * @module
 * A write the staff member starts with a button: busy while it runs (the button disabled, so a double click
 * sends one), then its answer or its error, for the page to say.
 */
import { useState } from 'preact/hooks';

/** The state of a write and the function that starts it. */
export interface Write<T> {
  readonly busy: boolean;
  readonly result: T | undefined;
  readonly error: unknown;
  readonly run: (write: () => Promise<T>) => Promise<void>;
}

/** One write's state. */
export function useWrite<T>(): Write<T> {
  const [state, setState] = useState<{ busy: boolean; result: T | undefined; error: unknown }>({
    busy: false,
    result: undefined,
    error: undefined,
  });
  async function run(write: () => Promise<T>) {
    setState({ busy: true, result: undefined, error: undefined });
    try {
      setState({ busy: false, result: await write(), error: undefined });
    } catch (error) {
      setState({ busy: false, result: undefined, error });
    }
  }
  return { ...state, run };
}
