/** Types of generate-jsx-types.mjs for its test. */
export declare const MANIFEST_PATH: string;
export declare const OUTPUT_PATH: string;
export declare function renderJsxTypes(manifest: unknown): string;
