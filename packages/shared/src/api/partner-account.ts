/**
 * @module
 * What the partner's server sees of its money through the BFF (`GET /v1/partner/account`): the upstream
 * account's status, balance and limits, and what the BFF has already promised to checkouts still open.
 */
import { z } from 'zod';
import { DateTimeSchema, MoneySchema, NonNegativeMoneySchema } from '../upstream/upstream-common';
import { apiEnvelope } from './common';
import { WidgetIdSchema } from './session';

/** The query of `GET /v1/partner/account`: the widget whose account, when the partner secret opens several. */
export const PartnerAccountQuerySchema = z.strictObject({ widgetId: WidgetIdSchema.optional() });

/** The partner's funding as the BFF sees it before it lets a traveller pay. */
export const PartnerAccountSchema = z.strictObject({
  /** The upstream account the widget's API key belongs to. */
  accountId: z.string().min(1),
  name: z.string(),
  /** The upstream account status as read; anything but `active` stops new checkouts. */
  status: z.string().min(1),
  /** `balance.balance` of the upstream account. */
  balance: MoneySchema,
  /** `balance.availableBalance` of the upstream account (its own reservations already taken off). */
  availableBalance: MoneySchema,
  /** Wholesale amounts this BFF promised to checkouts awaiting payment or being placed (the ledger). */
  heldByCheckouts: NonNegativeMoneySchema,
  /** How many open checkouts hold that amount. */
  openCheckouts: z.int().min(0),
  /**
   * Wholesale of the orders this BFF placed this calendar month (UTC). The monthly limit is checked against
   * this plus what is held; orders placed through other channels are not seen here, and the upstream still
   * refuses them at the order.
   */
  placedThisMonth: NonNegativeMoneySchema,
  /** What new checkouts may still promise: `availableBalance − heldByCheckouts`. */
  spendable: MoneySchema,
  limits: z.strictObject({
    /** The largest wholesale amount of one order; plans above it are not offered. */
    singleOrder: NonNegativeMoneySchema.nullable(),
    monthlySpend: NonNegativeMoneySchema.nullable(),
  }),
  /** The widget's `account.balance_low` threshold, when one is configured. */
  lowBalanceThreshold: NonNegativeMoneySchema.nullable(),
  /** When the upstream account was read (it is cached for a few seconds and re-read after every order). */
  checkedAt: DateTimeSchema,
});
export type PartnerAccount = z.infer<typeof PartnerAccountSchema>;
export const PartnerAccountResponseSchema = apiEnvelope(PartnerAccountSchema);
