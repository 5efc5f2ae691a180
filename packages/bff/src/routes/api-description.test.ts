/**
 * The BFF follows the API's one description (`API_ROUTES` of `@esim-embed/shared`): a route added there is
 * mounted with its handler behind its auth (and stops the start without one) and appears in the OpenAPI document,
 * which describes exactly the described routes with their schemas and error codes, as served.
 */
import {
  API_ROUTES,
  type ApiErrorCode,
  ApiErrorEnvelopeSchema,
  ConfirmCheckoutRequestSchema,
  PartnerAccountResponseSchema,
  PartnerCheckoutSchema,
  type RouteSpec,
  routeErrorCodes,
  WebhookEventTypeSchema,
} from '@esim-embed/shared';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dereferenced } from '../../testing/openapi-document';
import { call, type Stack, startStack } from '../../testing/stack';
import { statusesForCode } from '../errors';
import type { AppEnv } from '../http/app-env';
import type { IdempotencyOptions } from '../http/idempotency';
import { type AuthChains, mountRoutes, type RouteHandlers } from './mount-routes';
import { buildOpenApiDocument } from './openapi';
import { webhookEventSchema } from './openapi-webhooks';

/** A route as a new module under the shared `api/routes/` would describe it. */
const ADDED = {
  id: 'readPartnerWidget',
  method: 'GET',
  path: '/v1/partner/widgets/{widgetId}',
  summary: 'One of the partner’s widgets.',
  auth: 'partner',
  status: 200,
  response: PartnerAccountResponseSchema,
  errors: ['storefront_app_not_found'],
} as const satisfies RouteSpec;

const DESCRIBED: readonly RouteSpec[] = [...API_ROUTES, ADDED];

/** Each auth kind's chain marks the answer with its name, so a test sees which one ran. */
const MARKING_AUTH = Object.fromEntries(
  ['public', 'origin', 'session', 'session+secret', 'session+manage', 'partner'].map((auth) => [
    auth,
    [
      async function markAuth(c: { header(name: string, value: string): void }, next: () => Promise<void>) {
        c.header('X-Auth', auth);
        await next();
      },
    ],
  ]),
) as unknown as AuthChains;
const IDEMPOTENCY = { session: {}, partner: {} } as unknown as Record<
  'session' | 'partner',
  IdempotencyOptions
>;
const HANDLERS = Object.fromEntries(
  API_ROUTES.map((route) => [route.id, (c: { text(body: string): Response }) => c.text(route.id)]),
) as unknown as RouteHandlers;

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
};

/** The OpenAPI document, as far as these tests read it. */
type Answers = Record<string, { 'x-error-codes'?: string[]; content?: Record<string, { schema?: unknown }> }>;
interface Operation {
  operationId: string;
  security: unknown;
  responses: Answers;
  requestBody?: unknown;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
  webhooks: Record<
    string,
    { post: { operationId: string; requestBody: { content?: Answers[string]['content'] } } }
  >;
}

const documentOf = (routes?: readonly RouteSpec[]) => buildOpenApiDocument(routes) as unknown as Document;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('a route added to the API description', () => {
  it('is mounted with its handler, behind its auth, its path parameters read', async () => {
    const app = new Hono<AppEnv>();
    const readPartnerWidget = (c: { req: { param(name: string): string }; json(body: unknown): Response }) =>
      c.json({ widgetId: c.req.param('widgetId') });
    mountRoutes(app, {
      routes: DESCRIBED,
      handlers: { ...HANDLERS, readPartnerWidget } as unknown as RouteHandlers,
      auth: MARKING_AUTH,
      idempotency: IDEMPOTENCY,
    });
    const answer = await app.request('/v1/partner/widgets/shop');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('X-Auth')).toBe('partner');
    expect(await answer.json()).toEqual({ widgetId: 'shop' });
  });

  it('stops the mount while it has no handler', () => {
    expect(() =>
      mountRoutes(new Hono<AppEnv>(), {
        routes: DESCRIBED,
        handlers: HANDLERS,
        auth: MARKING_AUTH,
        idempotency: IDEMPOTENCY,
      }),
    ).toThrow(/readPartnerWidget \(GET \/v1\/partner\/widgets\/\{widgetId\}\) has no handler/);
  });

  it('appears in the OpenAPI document with its parameters, answer and error codes', () => {
    const document = documentOf(DESCRIBED);
    const operation = document.paths['/v1/partner/widgets/{widgetId}']?.get;
    expect(operation).toMatchObject({
      summary: ADDED.summary,
      parameters: [{ name: 'widgetId', in: 'path', required: true }],
      operationId: 'readPartnerWidget',
      security: [{ partnerSecret: [] }],
      responses: {
        200: { content: { 'application/json': { schema: expect.anything() } } },
        401: { 'x-error-codes': ['unauthorized'] },
        404: { 'x-error-codes': ['storefront_app_not_found', 'not_found'] },
      },
    });
    expect(dereferenced(document, operation?.responses[200]?.content?.['application/json']?.schema)).toEqual(
      jsonSchema(ADDED.response, 'output'),
    );
    expect(routeErrorCodes(ADDED)).toEqual(
      expect.arrayContaining(['storefront_app_not_found', 'unauthorized']),
    );
  });
});

describe('the OpenAPI document', () => {
  it('is served as built from the description', async () => {
    const answer = await call(stack.server.url, '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('describes exactly the described routes, each with its schemas and error codes', () => {
    const document = documentOf();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(API_ROUTES.map((route) => `${route.method} ${route.path}`).sort());
    for (const route of API_ROUTES as readonly RouteSpec[]) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      const expected: Record<string, unknown> = {
        summary: route.summary,
        responses: {
          [route.status]: {
            content: {
              [route.response ? 'application/json' : (route.contentType ?? 'application/json')]:
                route.response ? { schema: expect.anything() } : {},
            },
          },
        },
      };
      if (route.body)
        expected.requestBody = {
          content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
        };
      expect(operation, `${route.method} ${route.path}`).toMatchObject(expected);
      if (route.response) {
        const answer = operation?.responses[route.status]?.content?.['application/json']?.schema;
        expect(dereferenced(document, answer), route.id).toEqual(jsonSchema(route.response, 'output'));
      }
    }
  });

  it('names the shared schemas an answer is made of as components, by the names `shared` exports them by', () => {
    const document = documentOf();
    const checkout = document.paths['/v1/partner/checkouts/{id}']?.get;
    expect(checkout?.responses[200]?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/PartnerCheckoutResponse',
    });
    expect(document.components.schemas.PartnerCheckoutResponse).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/PartnerCheckout' } },
    });
    expect(dereferenced(document, { $ref: '#/components/schemas/PartnerCheckout' })).toEqual(
      jsonSchema(PartnerCheckoutSchema, 'output'),
    );
    // What the BFF reads stays inline: zod renders a schema's input apart from its output.
    const confirm = document.paths['/v1/partner/checkouts/{id}/confirm']?.post;
    expect(confirm?.requestBody).toMatchObject({
      content: { 'application/json': { schema: jsonSchema(ConfirmCheckoutRequestSchema, 'input') } },
    });
  });

  const operations = () => {
    const document = documentOf();
    return (API_ROUTES as readonly RouteSpec[]).map((route) => ({
      route,
      operation: document.paths[route.path]?.[route.method.toLowerCase()] ?? expect.unreachable(route.id),
    }));
  };

  it('names every operation by its route id, the partner SDK’s name for it (`client.call(id)`)', () => {
    const ids = operations().map(({ route, operation }) => {
      expect(operation.operationId, `${route.method} ${route.path}`).toBe(route.id);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['confirmPartnerCheckout', 'readPartnerAccount', 'createSession']),
    );
  });

  it('says who may call each operation: no credential on public ones, else the session or the partner secret', () => {
    const expected = { public: [], origin: [], partner: [{ partnerSecret: [] }] };
    for (const { route, operation } of operations()) {
      expect(operation.security, route.id).toEqual(
        route.auth in expected ? expected[route.auth as keyof typeof expected] : [{ session: [] }],
      );
    }
    expect(buildOpenApiDocument()).toMatchObject({ servers: [{ url: '/' }] });
  });

  it('lists the error codes of each route under every status they come with, one error envelope for all', () => {
    const document = documentOf();
    expect(dereferenced(document, document.components.schemas.ApiErrorEnvelope)).toEqual(
      jsonSchema(ApiErrorEnvelopeSchema, 'output'),
    );
    for (const { route, operation } of operations()) {
      const listed = new Map<string, string[]>();
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        expect(answer.content?.['application/json']?.schema, `${route.id} ${status}`).toEqual({
          $ref: '#/components/schemas/ApiErrorEnvelope',
        });
        for (const code of answer['x-error-codes'] ?? [])
          listed.set(code, [...(listed.get(code) ?? []), status]);
      }
      expect([...listed.keys()].sort(), route.id).toEqual(routeErrorCodes(route).sort());
      for (const [code, statuses] of listed) {
        expect(statuses.sort(), `${route.id} ${code}`).toEqual(
          statusesForCode(code as ApiErrorCode)
            .map(String)
            .sort(),
        );
      }
      expect(operation.responses.default, route.id).toBeUndefined();
    }
    const confirm = operations().find(({ route }) => route.id === 'confirmPartnerCheckout')?.operation;
    expect(confirm?.responses['404']?.['x-error-codes']).toEqual(
      expect.arrayContaining(['checkout_not_found']),
    );
    expect(confirm?.responses['402']?.['x-error-codes']).toEqual(['insufficient_balance']);
    expect(confirm?.responses['409']?.['x-error-codes']).toEqual(
      expect.arrayContaining(['invalid_transition']),
    );
  });

  it('describes each webhook event with its own schema, its `type` that event', () => {
    const document = documentOf();
    expect(Object.keys(document.webhooks).sort()).toEqual([...WebhookEventTypeSchema.options].sort());
    for (const type of WebhookEventTypeSchema.options) {
      const webhook = document.webhooks[type]?.post;
      const schema = webhook?.requestBody.content?.['application/json']?.schema;
      expect(dereferenced(document, schema), type).toEqual(jsonSchema(webhookEventSchema(type), 'output'));
      expect(schema, type).toMatchObject({ properties: { type: { const: type } } });
    }
    expect(document.webhooks['checkout.awaiting_payment']?.post.operationId).toBe(
      'checkoutAwaitingPaymentEvent',
    );
    // The checkout events share one shared schema; each event's own takes its type only.
    const typeRefused = (type: string) =>
      (webhookEventSchema('checkout.completed').safeParse({ type }).error?.issues ?? []).some(
        (issue) => issue.path[0] === 'type',
      );
    expect([typeRefused('checkout.completed'), typeRefused('checkout.failed')]).toEqual([false, true]);
  });
});
