/** Types of check-package.mjs for its test. */
export declare function packedFileBreaches(manifest: Record<string, unknown>, files: string[]): string[];
export declare function exportTargets(exports: unknown): string[];
export declare function packDifferences(
  packs: Record<string, { manifest: Record<string, unknown>; files: string[] }>,
): string[];
