/**
 * @module
 * The Partner eSIM Commerce API 2.0.0 as strict zod schemas, a file per resource family.
 */
export * from './catalog';
export * from './common';
export * from './errors';
