/**
 * @module
 * Every destination the catalog sells: all 249 ISO 3166-1 alpha-2 countries and territories grouped by
 * region, plus regional and global plans under reserved or user-assigned two-letter codes.
 */

/** The regions a country belongs to (`product.country.region`). */
export const REGIONS = [
  'Europe',
  'Asia',
  'Middle East',
  'Africa',
  'North America',
  'South America',
  'Oceania',
  'Antarctica',
] as const;
export type Region = (typeof REGIONS)[number];

const COUNTRIES_BY_REGION: Record<Region, string> = {
  Europe:
    'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM TR UA VA',
  Asia: 'AF AM AZ BD BN BT CN GE HK ID IN IO JP KG KH KP KR KZ LA LK MM MN MO MV MY NP PH PK SG TH TJ TL TM TW UZ VN',
  'Middle East': 'AE BH IL IQ IR JO KW LB OM PS QA SA SY YE',
  Africa:
    'AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW',
  'North America':
    'AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI PA PM PR SV SX TC TT UM US VC VG VI',
  'South America': 'AR BO BR CL CO EC FK GF GS GY PE PY SR UY VE',
  Oceania: 'AS AU CC CK CX FJ FM GU HM KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV VU WF WS',
  Antarctica: 'AQ BV TF',
};

/** A place a plan works in: one country, or a multi-country region under a reserved code. */
export interface Destination {
  /** Two letters: ISO 3166-1 alpha-2, or a reserved / user-assigned code for regional plans. */
  iso: string;
  /** English name (`Intl.DisplayNames` for countries). */
  name: string;
  /** Flag emoji from the ISO code; a globe for regional plans without a flag. */
  flag: string;
  region: Region | 'Global';
  /** `country`, or `regional` for multi-country plans. */
  scope: 'country' | 'regional';
  /** Countries a regional plan covers (empty for a country). */
  covers: readonly string[];
}

/** The flag emoji of a two-letter code: two regional-indicator symbols. */
export function flagEmoji(iso: string): string {
  return String.fromCodePoint(...[...iso.toUpperCase()].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

function countriesOf(region: Region): string[] {
  return COUNTRIES_BY_REGION[region].split(' ');
}

/** Every ISO 3166-1 alpha-2 code the catalog knows (249). */
export const COUNTRY_CODES: readonly string[] = REGIONS.flatMap(countriesOf).sort();

/**
 * Regional and global plans. `EU` is exceptionally reserved by ISO 3166 (and has a flag emoji); the
 * `X?` codes are user-assigned, so they can never clash with a country.
 */
const REGIONAL: readonly Omit<Destination, 'scope'>[] = [
  { iso: 'EU', name: 'Europe', flag: flagEmoji('EU'), region: 'Europe', covers: countriesOf('Europe') },
  { iso: 'XA', name: 'Asia', flag: '🌏', region: 'Asia', covers: countriesOf('Asia') },
  { iso: 'XF', name: 'Africa', flag: '🌍', region: 'Africa', covers: countriesOf('Africa') },
  {
    iso: 'XL',
    name: 'Latin America',
    flag: '🌎',
    region: 'South America',
    covers: [...countriesOf('South America'), 'MX', 'CR', 'PA', 'GT', 'HN', 'NI', 'SV', 'DO', 'CU'],
  },
  { iso: 'XM', name: 'Middle East', flag: '🌍', region: 'Middle East', covers: countriesOf('Middle East') },
  { iso: 'XG', name: 'Global', flag: '🌐', region: 'Global', covers: COUNTRY_CODES },
];

/** All destinations, countries first (by code), then the regional plans. */
export const DESTINATIONS: readonly Destination[] = [
  ...REGIONS.flatMap((region) =>
    countriesOf(region).map(
      (iso): Destination => ({
        iso,
        name: countryNames.of(iso) ?? iso,
        flag: flagEmoji(iso),
        region,
        scope: 'country',
        covers: [],
      }),
    ),
  ).sort((a, b) => a.iso.localeCompare(b.iso)),
  ...REGIONAL.map((destination): Destination => ({ ...destination, scope: 'regional' })),
];
