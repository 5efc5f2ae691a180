/**
 * @module
 * The packages a destination can be sold with: fixed data, unlimited, day passes and no-expiry plans, each
 * with a stable code for ids and slugs, its popularity and its English title.
 */
import type { PackageKind } from '@esim-embed/shared';
import type { Destination } from './destinations';

/** One package: kind, data, duration and its stable code. */
export interface PackageVariant {
  kind: PackageKind;
  dataMb: number | null;
  dailyDataMb: number | null;
  durationDays: number;
  /** Stable code used in ids and slugs (`5gb-30d`). */
  code: string;
}

const FIXED_SIZES_MB = [500, 1024, 2048, 3072, 5120, 10240, 15360, 20480, 30720, 51200, 102400];
const FIXED_DAYS = [1, 3, 5, 7, 10, 14, 15, 20, 30, 45, 60, 90, 180, 365];
const UNLIMITED_DAYS = [1, 2, 3, 5, 7, 10, 14, 15, 20, 21, 30, 45, 60, 90];
const DAYPASS_DAILY_MB = [500, 1024, 2048, 3072];
const NO_EXPIRY_SIZES_MB = [1024, 2048, 3072, 5120, 10240, 20480, 51200];
const NO_EXPIRY_DAYS = [365, 730, 1095];

/** The most popular packages, in order: every destination starts its list with these (lightly shuffled). */
export const POPULAR = [
  'fixed:1024:7',
  'fixed:3072:30',
  'fixed:5120:30',
  'unlimited:7',
  'fixed:10240:30',
  'daypass:1024:5',
  'fixed:20480:30',
  'unlimited:15',
  'no_expiry:3072:365',
  'fixed:1024:3',
  'unlimited:30',
  'daypass:1024:7',
];

function sizeCode(mb: number): string {
  return mb % 1024 === 0 ? `${mb / 1024}gb` : `${mb}mb`;
}

function sizeLabel(mb: number): string {
  return mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`;
}

function allVariants(): PackageVariant[] {
  const variants: PackageVariant[] = [];
  for (const mb of FIXED_SIZES_MB) {
    for (const days of FIXED_DAYS) {
      variants.push({
        kind: 'fixed',
        dataMb: mb,
        dailyDataMb: null,
        durationDays: days,
        code: `${sizeCode(mb)}-${days}d`,
      });
    }
  }
  for (const days of UNLIMITED_DAYS) {
    variants.push({
      kind: 'unlimited',
      dataMb: null,
      dailyDataMb: null,
      durationDays: days,
      code: `unl-${days}d`,
    });
  }
  for (const mb of DAYPASS_DAILY_MB) {
    for (let days = 1; days <= 30; days++) {
      variants.push({
        kind: 'daypass',
        dataMb: null,
        dailyDataMb: mb,
        durationDays: days,
        code: `${sizeCode(mb)}-day-${days}d`,
      });
    }
  }
  for (const mb of NO_EXPIRY_SIZES_MB) {
    for (const days of NO_EXPIRY_DAYS) {
      variants.push({
        kind: 'no_expiry',
        dataMb: mb,
        dailyDataMb: null,
        durationDays: days,
        code: `${sizeCode(mb)}-noexp-${days}d`,
      });
    }
  }
  return variants;
}

/** The key a variant has in the popular list. */
export function variantKey(variant: PackageVariant): string {
  switch (variant.kind) {
    case 'fixed':
      return `fixed:${variant.dataMb}:${variant.durationDays}`;
    case 'unlimited':
      return `unlimited:${variant.durationDays}`;
    case 'daypass':
      return `daypass:${variant.dailyDataMb}:${variant.durationDays}`;
    case 'no_expiry':
      return `no_expiry:${variant.dataMb}:${variant.durationDays}`;
  }
}

/** Every package the generator knows (about 300). */
export const VARIANTS = allVariants();
/** The order kinds are listed in. */
export const KIND_ORDER: Record<PackageKind, number> = { fixed: 0, unlimited: 1, daypass: 2, no_expiry: 3 };

/** The English title of a product (`France 5 GB · 30 days`). */
export function packageTitle(destination: Destination, variant: PackageVariant): string {
  const days = variant.durationDays === 1 ? '1 day' : `${variant.durationDays} days`;
  switch (variant.kind) {
    case 'fixed':
      return `${destination.name} ${sizeLabel(variant.dataMb ?? 0)} · ${days}`;
    case 'unlimited':
      return `${destination.name} Unlimited · ${days}`;
    case 'daypass':
      return `${destination.name} ${sizeLabel(variant.dailyDataMb ?? 0)}/day · ${days}`;
    case 'no_expiry':
      return `${destination.name} ${sizeLabel(variant.dataMb ?? 0)} · no expiry (${days})`;
  }
}
