/**
 * @module
 * Pure helpers both servers use to read a request the same way.
 */
export * from './request-body';
