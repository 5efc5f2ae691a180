/**
 * @module
 * `@esim-embed/shared`: the upstream contract (`partner/`), the BFF's widget API (`api/`) and pure helpers.
 */
export * from './api/index';
export * from './partner/index';
