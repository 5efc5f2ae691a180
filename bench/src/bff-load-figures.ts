/**
 * @module
 * What the BFF load section measures and how hard (`bff-load.ts` runs it, `bff-load-report.ts` writes it up).
 */
import type { LoadSpec, ProbeResult, ThroughputResult } from './load-spec';

/** How hard and how long each load runs. */
export interface LoadSettings {
  connections: number;
  /** Seconds of one measured run. */
  durationSeconds: number;
  /** Rounds of bare → bare with headers → BFF → upstream runs per route; the best round of each counts. */
  rounds: number;
  probeRequests: number;
}

/** A server's figures on one route: its best throughput round and its probe. */
export interface ServerFigures {
  best: ThroughputResult;
  /** Requests per second of every round, in order. */
  rounds: number[];
  probe: ProbeResult;
  failures: number;
  /** Requests per CPU-second of the server process over all rounds. */
  perCpuSecond: number;
}

/** One route measured on the BFF and its references. */
export interface RouteLoad {
  name: string;
  label: string;
  bff: LoadSpec;
  bare: LoadSpec;
  /** The bare route that writes the BFF answer's headers too. */
  bareWithHeaders: LoadSpec;
  upstream: LoadSpec | null;
  /** BFF/bare requests-per-second target, if the route has one. */
  rpsTarget?: number;
  /** BFF − upstream p50 target (ms), if the route has one. */
  addedP50Target?: number;
}

/** The BFF's and its references' figures on one route. */
export interface RouteFigures {
  bff: ServerFigures;
  bare: ServerFigures;
  bareWithHeaders: ServerFigures;
  upstream: ServerFigures | null;
}

/** What the BFF's upstream pool did during one BFF run. */
export interface PoolUse {
  route: string;
  bffRequests: number;
  connectionsOpened: number;
  /** The most connections opened during one run. */
  mostInOneRun: number;
}
