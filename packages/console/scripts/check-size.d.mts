/** Types of check-size.mjs for the bench and the suites. */
export declare const FIRST_LOAD_BUDGET: number;
export declare function measureFirstLoad(distDir: string): { bytes: number; files: string[] };
