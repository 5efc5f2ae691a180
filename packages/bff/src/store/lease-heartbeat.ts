/**
 * @module
 * Keeping a short lease alive while its holder works: a renewal (a compare-and-set the caller supplies) every
 * few seconds, one at a time, that stops for good once it is refused — someone else holds the lease now. A
 * holder that dies stops renewing, so its lease runs out within seconds and another instance takes over.
 */
import { createBackgroundLoop } from '../background-loop';

/** A running heartbeat. */
export interface LeaseHeartbeat {
  /** False once a renewal was refused: the lease may belong to someone else now. */
  readonly held: boolean;
  /** Stop renewing; resolves once a renewal under way has finished, so the holder's next write sees it. */
  stop(): Promise<void>;
}

/**
 * Call `renew` every `everyMs` until it answers false or `stop()` is called. A renewal that throws (a store
 * hiccup) is tried again on the next beat: the lease is not known to be lost.
 *
 * @example
 * const heartbeat = startLeaseHeartbeat(() => store.compareAndSet(key, version, renewed(), ttl), 1_500);
 * try { await work(); } finally { await heartbeat.stop(); }
 */
export function startLeaseHeartbeat(renew: () => Promise<boolean>, everyMs: number): LeaseHeartbeat {
  let held = true;
  // A slow store must not pile renewals up: a beat still under way is this beat too. A renewal that throws is
  // unknown to have been written: the next beat (or the holder's final write) finds out.
  const beats = createBackgroundLoop(
    async function renewLease() {
      if (held && !(await renew())) {
        held = false;
        void beats.close();
      }
    },
    { intervalMs: everyMs },
  );
  beats.start();
  return {
    get held() {
      return held;
    },
    async stop() {
      await beats.close();
    },
  };
}
