/**
 * @module
 * What both servers share about HTTP: one error type, and reading a request the same way.
 */

export * from './envelope-error';
export * from './request-body';
