/**
 * @module
 * `GET /v1/widgets/{widgetId}/start`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { WidgetStartResponseSchema } from '../session';

export const id = 'startWidget';
export const method = 'GET';
export const path = '/v1/widgets/{widgetId}/start';
export const summary =
  'Start a widget: its public config and current catalog address, no session; the page’s Origin must be one of the widget’s allowed origins (cached 60 s per Origin).';
export const auth = 'origin';
export const status = 200;
export const response = WidgetStartResponseSchema;
export const errors = ['widget_misconfigured', 'upstream_unavailable'] as const;
