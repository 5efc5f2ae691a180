/** Types of check-size.mjs for the size-budget test. */
type Budget = 'loader' | 'firstScreen' | 'install' | 'deviceCheck';
export declare const BUDGETS: Record<Budget, number>;
export declare function measureBudgets(distDir: string): {
  figures: Record<Budget, number>;
  breaches: Budget[];
};
