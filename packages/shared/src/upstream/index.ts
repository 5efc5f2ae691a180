/**
 * @module
 * The Partner eSIM Commerce API 2.0.0 as strict zod schemas, a file per resource family.
 */
export * from './account';
export * from './account-member';
export * from './action-request';
export * from './allocation';
export * from './api-key';
export * from './capabilities';
export * from './delivery-link';
export * from './error-status';
export * from './errors';
export * from './esim';
export * from './order';
export * from './price-book';
export * from './quote';
export * from './recipient';
export * from './retail-brand';
export * from './states';
export * from './storefront-domain';
export * from './upstream-catalog';
export * from './upstream-common';
