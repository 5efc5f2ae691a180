/**
 * @module
 * Loading one thing from the BFF inside a step: its value, its error, and a reload; a late answer after the
 * step is gone (or after the element disconnected) is dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useWidget } from '../flow/widget-context';

/** The state of a load. */
export type RemoteData<T> =
  | { state: 'loading' }
  | { state: 'loaded'; value: T }
  /** `failures`: how many loads in a row of this key have failed, for the notice's tries by itself. */
  | { state: 'failed'; error: unknown; failures: number };

/** Loads `load()` when `key` changes; `reload` tries again. */
export function useRemoteData<T>(load: () => Promise<T>, key: string): [RemoteData<T>, () => void] {
  const { client, report } = useWidget();
  const [data, setData] = useState<RemoteData<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // `load` is a new closure on every render: what it loads is named by `key`, and read when the key changes.
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const failuresInRow = useRef({ key, count: 0 });
  // biome-ignore lint/correctness/useExhaustiveDependencies(attempt): a reload loads the same key again
  useEffect(() => {
    let current = true;
    setData({ state: 'loading' });
    latestLoad.current().then(
      (value) => {
        if (!current) return;
        failuresInRow.current = { key, count: 0 };
        setData({ state: 'loaded', value });
      },
      (error: unknown) => {
        if (!current || client.closed) return;
        const count = failuresInRow.current.key === key ? failuresInRow.current.count + 1 : 1;
        failuresInRow.current = { key, count };
        setData({ state: 'failed', error, failures: count });
        report(error);
      },
    );
    return () => {
      current = false;
    };
  }, [key, attempt]);
  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return [data, reload];
}
