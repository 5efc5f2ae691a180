/**
 * @module
 * A request that changes something at the BFF (a quote, a checkout, a cancel, a link, the session): busy
 * while it runs, one at a time, its failure kept for the step to show and reported to the host page
 * (`esim-error`). Once the element is disconnected a failure is neither shown nor reported.
 */
import { useCallback, useContext, useRef, useState } from 'preact/hooks';
import { WidgetContext, type WidgetContextValue } from '../flow/widget-context';

/** A write action and its state. */
export interface WriteAction<Args extends unknown[]> {
  /** Runs the action; a call while it runs is ignored (a second click must not send a second request). */
  run: (...args: Args) => Promise<void>;
  /** Whether it runs now. */
  busy: boolean;
  /** Its last failure, or null: cleared when it runs again. */
  error: unknown;
  /** How many times in a row it has failed (since it last succeeded), for the notice's tries by itself. */
  failures: number;
}

/** Options of `useWriteAction`. */
export interface WriteActionOptions {
  /** Called after a failure was kept and reported, for what the step does next (a fresh quote). */
  onFailure?: (error: unknown) => void;
  /** The client and the error report, for the shell that provides them to the steps rather than reading them. */
  widget?: Pick<WidgetContextValue, 'client' | 'report'>;
}

/**
 * Wraps `action` (which applies its own result) as a write action. `run` keeps its identity for the life of
 * the component and always calls the latest `action`, so effects and other hooks may depend on it.
 *
 * @example
 * const send = useWriteAction(async () => setLink(await client.createDeliveryLink(id, secret, key)));
 * <button disabled={send.busy} onClick={send.run}>…</button>
 * {send.error !== null && <ErrorNotice error={send.error} actions={{ retry: send.run }} />}
 */
export function useWriteAction<Args extends unknown[]>(
  action: (...args: Args) => Promise<void>,
  options: WriteActionOptions = {},
): WriteAction<Args> {
  const context = useContext(WidgetContext);
  // Every step renders inside the shell's context; the shell itself passes `widget`.
  const { client, report } = options.widget ?? (context as WidgetContextValue);
  const [state, setState] = useState({ busy: false, error: null as unknown, failures: 0 });
  // The state above changes only on the next render: this one stops a second call in the same task.
  const running = useRef(false);
  const latest = useRef({ action, options });
  latest.current = { action, options };

  const run = useCallback(
    async (...args: Args) => {
      if (running.current) return;
      running.current = true;
      setState((last) => ({ ...last, busy: true, error: null }));
      try {
        await latest.current.action(...args);
        running.current = false;
        setState({ busy: false, error: null, failures: 0 });
      } catch (error) {
        // The element was removed: nobody is there to read the error.
        if (client.closed) return;
        running.current = false;
        setState((last) => ({ busy: false, error, failures: last.failures + 1 }));
        report(error);
        latest.current.options.onFailure?.(error);
      }
    },
    [client, report],
  );

  return { run, busy: state.busy, error: state.error, failures: state.failures };
}
