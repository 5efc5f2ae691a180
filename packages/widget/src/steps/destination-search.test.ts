/** Search as the traveller types: any language, ISO codes, accents, popularity among equals. */
import type { Destination } from '@esim-embed/shared';
import { expect, it } from 'vitest';
import { destinationsOfKind, popularDestinations, searchDestinations } from './destination-search';

function destination(
  code: string,
  name: string,
  searchTerms: string[],
  popularity: number | null = null,
): Destination {
  return {
    code,
    kind: code === 'EU' ? 'region' : 'country',
    name,
    flag: '',
    region: null,
    popularity,
    fromPrice: { amountMinor: 100, currency: 'USD' },
    fromPriceLabel: '$1.00',
    planCount: 1,
    searchTerms,
  };
}

/** As the BFF sends them: sorted by name in the locale's collation. */
const all = [
  destination('EU', 'Европа', ['Europe', 'Europa'], 3),
  destination('ES', 'Испания', ['Spain', 'España', 'ES'], 2),
  destination('TM', 'Туркменистан', ['Turkmenistan', 'TM']),
  destination('TR', 'Турция', ['Türkiye', 'TR'], 1),
];
const codes = (query: string) => searchDestinations(all, query).map((found) => found.code);

it('matches localized names, other names and ISO codes, best and most popular first', () => {
  expect(codes('тур')).toEqual(['TR', 'TM']);
  expect(codes('turkiye')).toEqual(['TR']);
  expect(codes('Turkey')).toEqual(['TR', 'TM']);
  expect(codes('turkmen')).toEqual(['TM']);
  expect(codes('espana')).toEqual(['ES']);
  expect(codes('es')).toEqual(['ES']);
  expect(codes('  ')).toEqual([]);
  expect(codes('atlantis')).toEqual([]);
});

it('lists popular destinations by rank and each kind in the BFF’s alphabetical order', () => {
  expect(popularDestinations(all).map((found) => found.code)).toEqual(['TR', 'ES', 'EU']);
  expect(destinationsOfKind(all, 'country').map((found) => found.code)).toEqual(['ES', 'TM', 'TR']);
  expect(destinationsOfKind(all, 'region').map((found) => found.code)).toEqual(['EU']);
});
