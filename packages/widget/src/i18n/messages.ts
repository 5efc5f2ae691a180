/**
 * @module
 * The shape of a message table: English is the reference; every other locale must have every key
 * (the type says so, and `messages.test.ts` checks the loaded tables at run time). The after-sale views
 * (manage link, "my eSIM", help) have a second table per locale, loaded with those lazy views; the device
 * check a third (`device-check/`), loaded with it once a plan is chosen.
 */
import type { afterSaleEn } from './after-sale/after-sale-en';
import type { deviceCheckEn } from './device-check/device-check-en';
import type { en } from './en';
import { type PluralMessage, plural } from './plural-message';

export { type PluralMessage, plural };

/** A complete message table. */
export type Messages = {
  readonly [K in keyof typeof en]: (typeof en)[K] extends string ? string : PluralMessage;
};

/** The after-sale views' table. */
export type AfterSaleMessages = {
  readonly [K in keyof typeof afterSaleEn]: string;
};

/** The device check's table (loaded with the device check, after the plan is chosen). */
export type DeviceCheckMessages = {
  readonly [K in keyof typeof deviceCheckEn]: string;
};

/** What a translator reads: the main table, and the after-sale table once those views have loaded it. */
export type MessageTable = Messages & Partial<AfterSaleMessages>;

/** A key of either table. */
export type MessageKey = keyof Messages | keyof AfterSaleMessages;
