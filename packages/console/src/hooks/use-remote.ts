/**
 * @module
 * Data read from the console API for a page: loading, the answer or the error, and a reload; a read still under
 * way when its inputs change or the page closes is aborted, so an old answer never replaces a newer one.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** The state of a read. */
export interface Remote<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** Reads again (after a write changed what the page shows). */
  readonly reload: () => void;
}

/** Reads `load` when `keys` change; `load` gets an abort signal. */
export function useRemote<T>(load: (signal: AbortSignal) => Promise<T>, keys: readonly unknown[]): Remote<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((previous) => ({ ...previous, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [...keys, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}
