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
  | { state: 'failed'; error: unknown };

/** Loads `load()` when `key` changes; `reload` tries again. */
export function useRemoteData<T>(load: () => Promise<T>, key: string): [RemoteData<T>, () => void] {
  const { client, report } = useWidget();
  const [data, setData] = useState<RemoteData<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // `load` is a new closure on every render: what it loads is named by `key`, and read when the key changes.
  const latestLoad = useRef(load);
  latestLoad.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies(key): a new key is something else to load
  // biome-ignore lint/correctness/useExhaustiveDependencies(attempt): a reload loads the same key again
  useEffect(() => {
    let current = true;
    setData({ state: 'loading' });
    latestLoad.current().then(
      (value) => current && setData({ state: 'loaded', value }),
      (error: unknown) => {
        if (!current || client.closed) return;
        setData({ state: 'failed', error });
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
