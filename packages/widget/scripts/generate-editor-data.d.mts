/** Types of generate-editor-data.mjs for its test. */
export interface PackageInfo {
  name: string;
  version: string;
  guide: string;
}
export declare const VSCODE_DATA_PATH: string;
export declare const WEB_TYPES_PATH: string;
export declare function readPackageInfo(): PackageInfo;
export declare function renderVscodeCustomData(manifest: unknown, info: PackageInfo): string;
export declare function renderWebTypes(manifest: unknown, info: PackageInfo): string;
