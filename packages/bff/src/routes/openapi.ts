/**
 * @module
 * `GET /openapi.json` (OpenAPI 3.1, built from the API's description in `@esim-embed/shared` and the same zod
 * schemas that validate the requests) and `GET /docs`, a plain HTML reference page without scripts.
 */
import {
  API_ROUTES,
  API_VERSION,
  type ApiErrorCode,
  ApiErrorEnvelopeSchema,
  CHECKOUT_SECRET_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
  type RouteSpec,
  routeErrorCodes,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { statusesForCode } from '../errors';
import { answerBody } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import type { RouteHandlers } from './mount-routes';
import { inlineSchema, type JsonSchema, type SchemaComponents, schemaComponents } from './openapi-schemas';
import { webhookOperations } from './openapi-webhooks';

function parametersOf(route: RouteSpec): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const match of route.path.matchAll(/\{([^}]+)\}/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (route.query !== undefined) {
    const query = inlineSchema(route.query, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  if (route.idempotent) {
    parameters.push({
      name: IDEMPOTENCY_KEY_HEADER,
      in: 'header',
      required: true,
      description: `A unique key per create; a replay returns the first answer (kept 24 h, scoped to the ${
        route.auth === 'partner' ? 'partner secret' : 'session'
      }).`,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (route.auth === 'session+secret') {
    parameters.push({
      name: CHECKOUT_SECRET_HEADER,
      in: 'header',
      required: true,
      description: 'The checkout’s client secret from `POST /v1/checkouts`.',
      schema: { type: 'string' },
    });
  }
  if (route.auth === 'session+manage' || route.acceptsManageToken) {
    parameters.push({
      name: MANAGE_TOKEN_HEADER,
      in: 'header',
      required: route.auth === 'session+manage',
      description:
        'A manage token (from a manage link): opens one eSIM’s own view; on quotes and checkouts, for a top-up.',
      schema: { type: 'string' },
    });
  }
  if (route.auth === 'origin' || route.auth.startsWith('session')) {
    parameters.push({
      name: 'Origin',
      in: 'header',
      required: true,
      description: 'Set by the browser; must be one of the widget’s allowed origins (and the session’s).',
      schema: { type: 'string' },
    });
  }
  return parameters;
}

/**
 * The error answers of a route, one per status, each listing the codes it comes with (in its description and in
 * `x-error-codes`, a client's switch to cover): the codes the route may answer (`routeErrorCodes`: its own, the
 * upstream's it relays, its auth's, any request's), each under every status it may come with.
 */
function errorAnswers(route: RouteSpec, components: SchemaComponents): Record<string, JsonSchema> {
  const codesByStatus = new Map<number, ApiErrorCode[]>();
  for (const code of routeErrorCodes(route)) {
    for (const status of statusesForCode(code))
      codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...codesByStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        status,
        {
          description: `The error envelope; branch on \`error.code\`: ${codes.join(', ')}.`,
          // One error envelope for every error answer: a generated client's one error type.
          content: { 'application/json': { schema: components.answer(ApiErrorEnvelopeSchema) } },
          'x-error-codes': codes,
        },
      ]),
  );
}

/** Who may call a route: no credential (`[]`), a session's bearer token or a partner secret. */
function securityOf(route: RouteSpec): JsonSchema[] {
  if (route.auth === 'partner') return [{ partnerSecret: [] }];
  if (route.auth.startsWith('session')) return [{ session: [] }];
  return [];
}

/**
 * The OpenAPI 3.1 document of the BFF (of `routes`: by default every described route). Each operation's
 * `operationId` is its route's id: the name the partner SDK calls it by (`client.call('confirmPartnerCheckout')`),
 * and the method name a generated client gives it.
 */
export function buildOpenApiDocument(routes: readonly RouteSpec[] = API_ROUTES): JsonSchema {
  const components = schemaComponents();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const operation: JsonSchema = {
      operationId: route.id,
      summary: route.summary,
      security: securityOf(route),
      parameters: parametersOf(route),
      responses: {
        [route.status]: route.response
          ? {
              description: 'Success',
              content: { 'application/json': { schema: components.answer(route.response) } },
            }
          : { description: 'Success', content: { [route.contentType ?? 'application/json']: {} } },
        ...Object.fromEntries(
          (route.alsoAnswers ?? []).map((status) => [
            status,
            {
              description: 'An answer of this route’s own, not a failure (the same body as its success).',
              content: {
                'application/json': { schema: components.answer(route.response ?? z.unknown()) },
              },
            },
          ]),
        ),
        ...errorAnswers(route, components),
      },
    };
    if (route.body !== undefined) {
      operation.requestBody = {
        required: route.bodyOptional !== true,
        content: { 'application/json': { schema: inlineSchema(route.body, 'input') } },
      };
    }
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()] = operation;
  }
  const webhooks = webhookOperations((schema) => components.answer(schema));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'eSIM Embed BFF',
      version: API_VERSION,
      description:
        'The backend-for-frontend of the eSIM Embed widget: sessions bound to a widget and an origin, the ' +
        'catalog at retail prices, quotes, exactly-once checkouts, installation data, and the partner server API.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // The BFF that serves this document: a partner's own deployment, at its own origin. (Generators name the
    // server after its description: `YourBffURL()`.)
    servers: [{ url: '/', description: 'Your BFF' }],
    components: {
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'From POST /v1/sessions.',
        },
        partnerSecret: { type: 'apiKey', in: 'header', name: PARTNER_SECRET_HEADER },
      },
      schemas: components.schemas,
    },
    paths,
    webhooks,
  };
}

/** The OpenAPI and docs routes. */
export function openApiHandlers(): RouteHandlers<'openApi' | 'docsPage'> {
  const document = JSON.stringify(buildOpenApiDocument());

  function openApi(c: Context<AppEnv>) {
    return answerBody(c, document, 200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'Access-Control-Allow-Origin': '*',
    });
  }

  function docsPage(c: Context<AppEnv>) {
    const rows = API_ROUTES.map(
      (route) =>
        html`<tr><td><code>${route.method}</code></td><td><code>${route.path}</code></td><td>${route.auth}</td><td>${route.summary}</td></tr>`,
    );
    return c.html(
      html`<!doctype html>
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>eSIM Embed BFF — API</title>
            <style>
              body { font: 16px/1.5 system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #1f2937; }
              table { border-collapse: collapse; width: 100%; }
              td, th { border-bottom: 1px solid #e5e7eb; padding: 0.4rem 0.6rem; text-align: left; vertical-align: top; }
              code { font-size: 0.9em; }
            </style>
          </head>
          <body>
            <h1>eSIM Embed BFF</h1>
            <p>
              The machine-readable description is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Errors use
              one envelope: <code>{ "error": { "code", "params" }, "meta": { "requestId", "apiVersion" } }</code>;
              branch on <code>error.code</code>. Creates need an <code>${IDEMPOTENCY_KEY_HEADER}</code> header.
            </p>
            <table>
              <thead><tr><th>method</th><th>path</th><th>auth</th><th>what</th></tr></thead>
              <tbody>${rows}</tbody>
            </table>
          </body>
        </html>`,
      200,
      { 'Cache-Control': 'public, max-age=300' },
    );
  }

  return { openApi, docsPage };
}
