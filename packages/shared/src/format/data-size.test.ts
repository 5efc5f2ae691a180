/** Data sizes and package allowances in every locale of the contract. */
import { describe, expect, it } from 'vitest';
import type { Locale } from '../upstream/upstream-common';
import { formatDataSize, formatPackageData } from './data-size';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatDataSize (1 GB = 1024 MB)', () => {
  it.each([
    [0, '0 MB'],
    [500, '500 MB'],
    [1023, '1,023 MB'],
    [1024, '1 GB'],
    [1536, '1.5 GB'],
    [3072, '3 GB'],
    [1126, '1.1 GB'],
    [20480, '20 GB'],
  ])('%i MB → %s', (mb, expected) => {
    expect(plain(formatDataSize(mb, 'en'))).toBe(expected);
  });

  it.each<[Locale, string, string]>([
    ['en', '500 MB', '1.5 GB'],
    ['ru', '500 МБ', '1,5 ГБ'],
    ['es', '500 MB', '1,5 GB'],
    ['de', '500 MB', '1,5 GB'],
    ['fr', '500 Mo', '1,5 Go'],
  ])('%s: %s, %s', (locale, megabytes, gigabytes) => {
    expect(plain(formatDataSize(500, locale))).toBe(megabytes);
    expect(plain(formatDataSize(1536, locale))).toBe(gigabytes);
  });
});

describe('formatPackageData', () => {
  it.each<[Locale, string, string, string]>([
    ['en', 'Unlimited', '1 GB per day', '3 GB'],
    ['ru', 'Безлимит', '1 ГБ в день', '3 ГБ'],
    ['es', 'Ilimitado', '1 GB al día', '3 GB'],
    ['de', 'Unbegrenzt', '1 GB pro Tag', '3 GB'],
    ['fr', 'Illimité', '1 Go par jour', '3 Go'],
  ])('%s: %s / %s / %s', (locale, unlimited, perDay, total) => {
    expect(formatPackageData({ dataMb: null, dailyDataMb: null, unlimited: true }, locale)).toBe(unlimited);
    expect(plain(formatPackageData({ dataMb: null, dailyDataMb: 1024, unlimited: false }, locale))).toBe(
      perDay,
    );
    expect(plain(formatPackageData({ dataMb: 3072, dailyDataMb: null, unlimited: false }, locale))).toBe(
      total,
    );
  });

  it('says unlimited even when a fair-use total or daily allowance is given', () => {
    expect(formatPackageData({ dataMb: 51200, dailyDataMb: 2048, unlimited: true }, 'en')).toBe('Unlimited');
  });

  it('prefers the daily allowance to a total', () => {
    expect(formatPackageData({ dataMb: 7168, dailyDataMb: 1024, unlimited: false }, 'en')).toBe(
      '1 GB per day',
    );
  });

  it('formats a daily allowance below a gigabyte in MB', () => {
    expect(plain(formatPackageData({ dataMb: null, dailyDataMb: 500, unlimited: false }, 'ru'))).toBe(
      '500 МБ в день',
    );
  });

  it('is empty when the package states no size at all', () => {
    expect(formatPackageData({ dataMb: null, dailyDataMb: null, unlimited: false }, 'en')).toBe('');
  });
});
