/**
 * @module
 * The BFF's widget API (`/v1/*`): the one definition that the BFF validates with and the widget parses with.
 */
export * from './after-sale';
export * from './catalog';
export * from './checkout';
export * from './common';
export * from './list-page';
export * from './manage-link-address';
export * from './operations';
export * from './partner-account';
export * from './plan-order';
export * from './privacy-erasure';
export * from './privacy-export';
export * from './requestable-actions';
export * from './retry-after';
export * from './route-spec';
export * from './sales-ledger';
export * from './session';
export * from './support-desk';
export * from './webhook-deliveries';
export * from './webhook-signature';
export * from './webhooks';
export * from './widget-integrity';
