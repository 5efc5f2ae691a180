/**
 * @module
 * Pure display and pricing helpers: money from minor units and data sizes from megabytes.
 */
export * from './data-size';
export * from './money';
