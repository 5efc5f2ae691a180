/**
 * @module
 * What observes every answered request — the app's middleware and the answer cache (which answers before the
 * app) both call it; `observability/http-metrics.ts` makes the one that feeds the request histogram.
 */
import type { AppVariables } from './app-env';

/** Records one answered request: its route (undefined: none described), method, status and seconds taken. */
export type RequestObserver = (
  route: AppVariables['route'] | undefined,
  method: string,
  status: number,
  seconds: number,
) => void;
