/** Types of manifest-element.mjs for the generators' tests. */
export declare const MANIFEST_PATH: string;
export declare function readManifest(): unknown;
export declare function manifestElement(manifest: unknown): unknown;
export declare function isRequired(attribute: { description?: string }): boolean;
export declare function literalValues(attribute: { type?: { text: string } }): string[];
