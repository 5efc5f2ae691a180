/**
 * @module
 * The partner console's API (`/console/api/…`), the contract between the BFF and the console page: the roles,
 * the error reasons, the session, the users and audit log, the sale search and page, the operations' views, and
 * every route described once in `CONSOLE_ROUTES`. Answers are `{ data, meta }` (lists: `{ data, nextCursor,
 * meta }`), errors the BFF's envelope; every write (not GET) sends `X-CSRF-Token`.
 *
 * | method | path                                   | least role | body → answer                                              |
 * | ------ | -------------------------------------- | ---------- | ---------------------------------------------------------- |
 * | POST   | /session                               | signed out | ConsoleSignInRequest → ConsoleSession (sets the cookie)    |
 * | GET    | /session                               | viewer     | → ConsoleSession (its `csrfToken`)                         |
 * | DELETE | /session                               | viewer     | → `{ signedOut: true }`                                    |
 * | GET    | /sales?q=&email=&checkoutId=&…         | viewer     | ConsoleSalesQuery → page of PartnerCheckout                |
 * | GET    | /sales.csv?from=&to=&widgetId=         | viewer     | PartnerSaleExportQuery → CSV (`SALE_CSV_COLUMNS`)          |
 * | GET    | /sales/{checkoutId}                    | viewer     | → ConsoleSalePage                                          |
 * | GET    | /webhooks                              | viewer     | → ConsoleWebhooksHealth                                    |
 * | GET    | /money                                 | viewer     | → ConsoleMoney                                             |
 * | GET    | /charts/sales?from=&to=&widgetId=      | viewer     | ConsolePeriodQuery → ConsoleSalesChart                     |
 * | GET    | /charts/funnel?from=&to=&widgetId=     | viewer     | ConsolePeriodQuery → ConsoleFunnelChart                    |
 * | POST   | /webhook-deliveries/{id}/resend        | support    | `{}` → PartnerWebhookDelivery                              |
 * | POST   | /webhook-deliveries/resend-failed      | support    | ResendFailedDeliveriesRequest → `{ resent }`               |
 * | POST   | /sales/{checkoutId}/help-requests      | support    | CreateActionRequest → PartnerActionRequest                 |
 * | POST   | /sales/{checkoutId}/delivery-links     | support    | CreatePartnerDeliveryLinkRequest → PartnerDeliveryLink     |
 * | POST   | /sales/{checkoutId}/manage-links       | support    | `{}` → ManageLink                                          |
 * | POST   | /sales/{checkoutId}/erasure            | admin      | `{}` → PrivacyErasure (202)                                |
 * | GET    | /users                                 | admin      | → ConsoleUser[]                                            |
 * | POST   | /users                                 | admin      | CreateConsoleUserRequest → CreatedConsoleUser (otpauth once) |
 * | PATCH  | /users/{id}                            | admin      | UpdateConsoleUserRequest → ConsoleUser                     |
 * | GET    | /audit?limit=&cursor=                  | admin      | → page of ConsoleAuditEntry                                |
 *
 * Refusals: no or ended session → 401 `unauthorized` (`params.reason: session`); a wrong sign-in → 401
 * (`credentials`, or `second_factor` when the code is missing); a role that lacks the right → 403 `forbidden`
 * (`reason: role`, `needed`); a write without the right CSRF token → 403 `forbidden` (`reason: csrf_token`);
 * too many failed sign-ins from an address → 429 `rate_limited` with `Retry-After`; bad input → 400/422
 * `validation_failed`. Another partner's sale is answered as unknown (`checkout_not_found`, 404).
 */
export * from './console-errors';
export * from './console-operations';
export * from './console-roles';
export * from './console-routes';
export * from './console-sales';
export * from './console-session';
export * from './console-users';
