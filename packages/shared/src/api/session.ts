/**
 * @module
 * How a widget starts: `GET /v1/widgets/{widgetId}/start` answers the widget's public config (brand, currency,
 * checkout mode, languages) and the address of its public catalog to an allowed page, with no token; from the
 * quote on, `POST /v1/sessions` turns the widget id and the page's Origin into a short-lived session token.
 */
import { z } from 'zod';
import { CurrencySchema, DateTimeSchema, EnvironmentSchema, LocaleSchema } from '../upstream/upstream-common';
import { apiEnvelope } from './common';

export const WidgetIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, _ and -');

export const CreateSessionRequestSchema = z.strictObject({ widgetId: WidgetIdSchema });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;

export const CheckoutModeSchema = z.enum(['partner_confirm', 'direct']);
export type CheckoutMode = z.infer<typeof CheckoutModeSchema>;

/**
 * How the traveller accepts the partner's terms: `checkbox`, a box ticked before buying; `button`, the buy
 * button's own words ("By buying you accept the terms"), so that pressing it is the consent.
 */
export const ConsentModeSchema = z.enum(['checkbox', 'button']);
export type ConsentMode = z.infer<typeof ConsentModeSchema>;

const HexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, '#RRGGBB');

/** What the traveller sees of the partner: validated by the BFF before it reaches the browser. */
export const WidgetBrandSchema = z.strictObject({
  displayName: z.string().min(1).max(120),
  /** HTTPS (or the BFF's own origin) PNG, JPEG, GIF or SVG; null shows the display name alone. */
  logoUrl: z.url().nullable(),
  primaryColor: HexColorSchema,
  supportEmail: z.email().nullable(),
  supportUrl: z.url().nullable(),
  termsUrl: z.url().nullable(),
  privacyUrl: z.url().nullable(),
});
export type WidgetBrand = z.infer<typeof WidgetBrandSchema>;

/** The widget's public config: everything the browser may know about the widget. */
export const WidgetPublicConfigSchema = z.strictObject({
  widgetId: WidgetIdSchema,
  environment: EnvironmentSchema,
  checkoutMode: CheckoutModeSchema,
  currency: CurrencySchema,
  /** Prices are shown and charged in whole roubles. */
  wholeRubOnly: z.boolean(),
  defaultLocale: LocaleSchema,
  locales: z.array(LocaleSchema).min(1),
  /** The traveller must give an email (the partner does not deliver through its own UI). */
  emailRequired: z.boolean(),
  /**
   * Who emails the traveller the installation details: the upstream (`platform` delivery), the partner, or
   * nobody (then the widget asks for no email).
   */
  emailSender: z.enum(['upstream', 'partner', 'none']),
  /** How the traveller accepts the terms: a checkbox, or the buy button's own words. */
  consent: ConsentModeSchema,
  /** Whether the widget tells the traveller, before buying, whether their device can take an eSIM. */
  deviceCheck: z.boolean(),
  brand: WidgetBrandSchema,
});
export type WidgetPublicConfig = z.infer<typeof WidgetPublicConfigSchema>;

/**
 * The catalog at its current version under a public, immutable address: `{path}/{locale}/destinations` and
 * `{path}/{locale}/plans/{code}` answer as the session routes do, and any cache may keep them.
 */
export const CatalogAddressSchema = z.strictObject({ path: z.string().startsWith('/') });
export type CatalogAddress = z.infer<typeof CatalogAddressSchema>;

/** `GET /v1/widgets/{widgetId}/start`: what the widget's first screen needs, no session. */
export const WidgetStartSchema = z.strictObject({
  widget: WidgetPublicConfigSchema,
  catalog: CatalogAddressSchema,
});
export type WidgetStart = z.infer<typeof WidgetStartSchema>;

export const WidgetStartResponseSchema = apiEnvelope(WidgetStartSchema);
export type WidgetStartResponse = z.infer<typeof WidgetStartResponseSchema>;

export const SessionSchema = z.strictObject({
  /** Bearer token for every later call, bound to widget, origin and environment. */
  token: z.string().min(1),
  expiresAt: DateTimeSchema,
  /**
   * Until when, after `expiresAt`, the token may still read back the answer of a checkout's create sent under it
   * (the same `Idempotency-Key` and body), and do nothing else: how long a widget keeps a create it has not
   * settled, so that a reload settles it. Absent from older BFFs: `expiresAt`.
   */
  replayUntil: DateTimeSchema.optional(),
  /** As at the start: a widget of release 0.1.0 opens its session first and starts from it. */
  widget: WidgetPublicConfigSchema,
  catalog: CatalogAddressSchema.optional(),
});
export type Session = z.infer<typeof SessionSchema>;

export const SessionResponseSchema = apiEnvelope(SessionSchema);
export type SessionResponse = z.infer<typeof SessionResponseSchema>;
