/**
 * @module
 * `POST /v1/sessions`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CreateSessionRequestSchema, SessionResponseSchema } from '../session';

export const id = 'createSession';
export const method = 'POST';
export const path = '/v1/sessions';
export const summary =
  'Open a widget session (the widget does at the quote): the page’s Origin must be one of the widget’s allowed origins.';
export const auth = 'origin';
export const body = CreateSessionRequestSchema;
export const status = 201;
export const response = SessionResponseSchema;
export const errors = ['widget_misconfigured'] as const;
