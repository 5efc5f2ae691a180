/**
 * @module
 * What profiling found behind a figure, by check id: for a miss, the reason and what was done (before /
 * after) or precisely what remains; for a met target that needed work, the before / after. The report
 * prints each under its figure.
 */

/** Findings by check id (see `check()` calls in each section). */
export const FINDINGS: Record<string, string> = {};
