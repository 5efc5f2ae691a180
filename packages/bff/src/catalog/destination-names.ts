/**
 * @module
 * What a destination is called: country names in the traveller's language (`Intl.DisplayNames`, cached
 * per locale), the names of multi-country regions, the words a search matches, and which destinations
 * travellers pick most.
 */
import { type Locale, LocaleSchema } from '@esim-embed/shared';

/** Every locale the widget speaks (the contract's); search terms cover all of them. */
export const WIDGET_LOCALES: readonly Locale[] = LocaleSchema.options;

/**
 * Destinations travellers buy most, most popular first (Turkey, Thailand, the Emirates …). A short,
 * hand-kept list: it orders the "popular" shelf, nothing else.
 */
export const POPULAR_DESTINATIONS: readonly string[] = [
  'TR',
  'TH',
  'AE',
  'EG',
  'GE',
  'CN',
  'US',
  'IT',
  'ES',
  'FR',
  'DE',
  'GB',
  'JP',
  'VN',
  'ID',
  'AM',
  'KZ',
  'UZ',
  'KR',
  'EU',
  'XG',
];

/** Names of multi-country regions, by the upstream's English name. */
const REGION_NAMES: Record<string, Record<Locale, string>> = {
  europe: { en: 'Europe', ru: 'Европа', es: 'Europa', de: 'Europa', fr: 'Europe' },
  asia: { en: 'Asia', ru: 'Азия', es: 'Asia', de: 'Asien', fr: 'Asie' },
  africa: { en: 'Africa', ru: 'Африка', es: 'África', de: 'Afrika', fr: 'Afrique' },
  'latin-america': {
    en: 'Latin America',
    ru: 'Латинская Америка',
    es: 'Latinoamérica',
    de: 'Lateinamerika',
    fr: 'Amérique latine',
  },
  'middle-east': {
    en: 'Middle East',
    ru: 'Ближний Восток',
    es: 'Oriente Medio',
    de: 'Naher Osten',
    fr: 'Moyen-Orient',
  },
  'north-america': {
    en: 'North America',
    ru: 'Северная Америка',
    es: 'Norteamérica',
    de: 'Nordamerika',
    fr: 'Amérique du Nord',
  },
  'south-america': {
    en: 'South America',
    ru: 'Южная Америка',
    es: 'Sudamérica',
    de: 'Südamerika',
    fr: 'Amérique du Sud',
  },
  oceania: { en: 'Oceania', ru: 'Океания', es: 'Oceanía', de: 'Ozeanien', fr: 'Océanie' },
  caribbean: { en: 'Caribbean', ru: 'Карибы', es: 'Caribe', de: 'Karibik', fr: 'Caraïbes' },
  balkans: { en: 'Balkans', ru: 'Балканы', es: 'Balcanes', de: 'Balkan', fr: 'Balkans' },
  scandinavia: {
    en: 'Scandinavia',
    ru: 'Скандинавия',
    es: 'Escandinavia',
    de: 'Skandinavien',
    fr: 'Scandinavie',
  },
  global: { en: 'Global', ru: 'Весь мир', es: 'Todo el mundo', de: 'Weltweit', fr: 'Monde entier' },
};

/** A region's stable key: its English name in lowercase with dashes (`Middle East` → `middle-east`). */
export function regionSlug(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Whether a two-letter destination code names a multi-country region rather than a country: `EU`
 * (exceptionally reserved by ISO 3166) or a user-assigned code (`AA`, `QM`–`QZ`, `XA`–`XZ`, `ZZ`).
 */
export function isRegionCode(code: string): boolean {
  return code === 'EU' || code === 'AA' || code === 'ZZ' || /^Q[M-Z]$/.test(code) || /^X[A-Z]$/.test(code);
}

const displayNames = new Map<Locale, Intl.DisplayNames>();

function countryNamesIn(locale: Locale): Intl.DisplayNames {
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    displayNames.set(locale, names);
  }
  return names;
}

/**
 * The destination's name in `locale`: the country name from `Intl.DisplayNames`, a region's name from
 * the table above, else the upstream's (English) name.
 */
export function destinationName(code: string, upstreamName: string, locale: Locale): string {
  if (isRegionCode(code)) return REGION_NAMES[regionSlug(upstreamName)]?.[locale] ?? upstreamName;
  return countryNamesIn(locale).of(code) ?? upstreamName;
}

const nativeNames = new Map<string, string | undefined>();

/** The country's name in its own main language (`DE` → `Deutschland`), when Intl knows both. */
function nativeName(code: string): string | undefined {
  if (nativeNames.has(code)) return nativeNames.get(code);
  let name: string | undefined;
  try {
    const language = new Intl.Locale(`und-${code}`).maximize().language;
    if (language !== 'und')
      name = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }).of(code);
  } catch {
    name = undefined;
  }
  nativeNames.set(code, name);
  return name;
}

/**
 * Words a destination search matches besides the shown name: the ISO code, the upstream's name, the
 * name in every widget locale (a Russian speaker may type "Germany") and the native name.
 */
export function destinationSearchTerms(code: string, upstreamName: string): string[] {
  const terms = new Set<string>([code, upstreamName]);
  for (const locale of WIDGET_LOCALES) terms.add(destinationName(code, upstreamName, locale));
  if (!isRegionCode(code)) {
    const native = nativeName(code);
    if (native) terms.add(native);
  }
  return [...terms];
}
