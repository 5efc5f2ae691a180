/**
 * @module
 * The mobile networks an offer names (`capabilities.networks`): for a country, operators of that country; for a
 * regional plan, operators of the countries it covers. Popular destinations name their real operators; every other
 * country gets invented names that claim nothing ("Sandbox Mobile TR"), so no plan says a network serves a
 * country it does not.
 */

/**
 * Real operators of popular destinations, as travellers know them. A name that several countries use (Vodafone,
 * Orange, Claro, …) carries the country, so that each name belongs to one country and a regional plan's list
 * still says where each network is.
 */
const REAL_OPERATORS: Readonly<Record<string, readonly string[]>> = {
  AE: ['e&', 'du'],
  AR: ['Personal', 'Claro AR', 'Movistar AR'],
  AT: ['A1 AT', 'Magenta AT', 'Drei AT'],
  AU: ['Telstra', 'Optus', 'Vodafone AU'],
  BE: ['Proximus', 'Orange BE', 'Base'],
  BR: ['Vivo', 'Claro BR', 'TIM BR'],
  CA: ['Rogers', 'Bell', 'Telus'],
  CH: ['Swisscom', 'Sunrise', 'Salt'],
  CL: ['Entel CL', 'Movistar CL', 'Claro CL'],
  CN: ['China Mobile', 'China Unicom', 'China Telecom'],
  CO: ['Claro CO', 'Movistar CO', 'Tigo CO'],
  CZ: ['O2 CZ', 'T-Mobile CZ', 'Vodafone CZ'],
  DE: ['Telekom DE', 'Vodafone DE', 'O2 DE'],
  DK: ['TDC', 'Telenor DK', 'Telia DK'],
  EG: ['Vodafone EG', 'Orange EG', 'WE'],
  ES: ['Movistar ES', 'Orange ES', 'Vodafone ES'],
  FI: ['Elisa', 'DNA', 'Telia FI'],
  FR: ['Orange FR', 'SFR', 'Bouygues Telecom', 'Free Mobile'],
  GB: ['EE', 'Vodafone UK', 'O2 UK', 'Three UK'],
  GR: ['Cosmote', 'Vodafone GR', 'Nova GR'],
  HK: ['CSL', 'SmarTone', '3 HK'],
  ID: ['Telkomsel', 'Indosat Ooredoo', 'XL Axiata'],
  IE: ['Vodafone IE', 'Three IE', 'Eir'],
  IL: ['Partner', 'Cellcom IL', 'Pelephone'],
  IN: ['Jio', 'Airtel IN', 'Vi'],
  IT: ['TIM', 'Vodafone IT', 'WindTre', 'Iliad IT'],
  JP: ['NTT Docomo', 'au', 'SoftBank'],
  KE: ['Safaricom', 'Airtel KE'],
  KR: ['SK Telecom', 'KT', 'LG U+'],
  MA: ['Maroc Telecom', 'Orange MA', 'inwi'],
  MX: ['Telcel', 'Movistar MX', 'AT&T MX'],
  MY: ['Maxis', 'CelcomDigi', 'U Mobile'],
  NG: ['MTN NG', 'Glo', 'Airtel NG'],
  NL: ['KPN', 'Odido', 'Vodafone NL'],
  NO: ['Telenor NO', 'Telia NO', 'Ice'],
  NZ: ['One NZ', 'Spark', '2degrees'],
  PE: ['Claro PE', 'Movistar PE', 'Entel PE'],
  PH: ['Globe', 'Smart', 'DITO'],
  PL: ['Play', 'Orange PL', 'Plus', 'T-Mobile PL'],
  PT: ['MEO', 'NOS', 'Vodafone PT'],
  QA: ['Ooredoo QA', 'Vodafone QA'],
  SA: ['STC', 'Mobily', 'Zain SA'],
  SE: ['Telia SE', 'Tele2 SE', 'Telenor SE', 'Tre SE'],
  SG: ['Singtel', 'StarHub', 'M1'],
  TH: ['AIS', 'TrueMove H'],
  TR: ['Turkcell', 'Vodafone TR', 'Türk Telekom'],
  TW: ['Chunghwa Telecom', 'Taiwan Mobile', 'FarEasTone'],
  US: ['AT&T', 'T-Mobile US', 'Verizon'],
  VN: ['Viettel', 'Vinaphone', 'MobiFone'],
  ZA: ['Vodacom', 'MTN ZA', 'Cell C', 'Telkom ZA'],
};

/** Invented network names of a country without real operators here: they name the sandbox, not a company. */
const INVENTED = ['Sandbox Mobile', 'Sandbox Net', 'Sandbox Link'] as const;

/** The networks that serve a country (ISO 3166-1 alpha-2): its real operators, or invented names. */
export function operatorsOf(iso: string): readonly string[] {
  return REAL_OPERATORS[iso] ?? INVENTED.map((name) => `${name} ${iso}`);
}

/** The countries whose networks are real operators here. */
export const COUNTRIES_WITH_REAL_OPERATORS: readonly string[] = Object.keys(REAL_OPERATORS);
