/**
 * @module
 * The shape of a message table: English is the reference; every other locale must have every key
 * (the type says so, and `messages.test.ts` checks the loaded tables at run time). The first screen (the
 * destinations, the shell, the errors) has the main table; the purchase's steps (plans, checkout, progress,
 * installation) a second table per locale (`purchase/`), loaded with those lazy steps; the after-sale views
 * (manage link, "my eSIM", help) a third, loaded with them; the device check a fourth (`device-check/`), loaded
 * with it once a plan is chosen.
 */
import type { afterSaleEn } from './after-sale/after-sale-en';
import type { deviceCheckEn } from './device-check/device-check-en';
import type { en } from './en';
import { type PluralMessage, plural } from './plural-message';
import type { purchaseEn } from './purchase/purchase-en';

export { type PluralMessage, plural };

/** A complete message table. */
export type Messages = {
  readonly [K in keyof typeof en]: (typeof en)[K] extends string ? string : PluralMessage;
};

/** The purchase steps' table (loaded with every lazy step, not on the first screen). */
export type PurchaseMessages = {
  readonly [K in keyof typeof purchaseEn]: (typeof purchaseEn)[K] extends string ? string : PluralMessage;
};

/** The after-sale views' table. */
export type AfterSaleMessages = {
  readonly [K in keyof typeof afterSaleEn]: string;
};

/** The device check's table (loaded with the device check, after the plan is chosen). */
export type DeviceCheckMessages = {
  readonly [K in keyof typeof deviceCheckEn]: string;
};

/** The tables a lazy step loads with its code. */
export interface LazyTables {
  purchase: PurchaseMessages;
  afterSale: AfterSaleMessages;
}

/** What a translator reads: the main table, and the lazy tables once the steps that need them have loaded them. */
export type MessageTable = Messages & Partial<PurchaseMessages> & Partial<AfterSaleMessages>;

/** A key of any table a translator reads. */
export type MessageKey = keyof Messages | keyof PurchaseMessages | keyof AfterSaleMessages;
