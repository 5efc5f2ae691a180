/** Types of check-size.mjs for the size-budget test. */
export declare const BUDGETS: { loader: number; firstScreen: number; install: number };
export declare function measureBudgets(distDir: string): {
  figures: { loader: number; firstScreen: number; install: number };
  breaches: ('loader' | 'firstScreen' | 'install')[];
};
