/**
 * @module
 * German messages.
 */
import { type Messages, plural } from './messages';

export const de: Messages = {
  loading: 'Wird geladen…',
  testMode: 'Testmodus',
  testModeHint: ': kein echter Kauf',
  soldBy: 'Verkauft von {brand}',
  support: 'Hilfe',
  terms: 'AGB',
  privacy: 'Datenschutz',

  destinationsHeading: 'Wohin reisen Sie?',
  searchLabel: 'Land, Region oder Code',
  searchHint: 'Geben Sie ein Land in einer beliebigen Sprache oder seinen zweistelligen Code ein.',
  popular: 'Beliebte Reiseziele',
  countries: 'Länder',
  regions: 'Regionen',
  searchResults: 'Ergebnisse',
  fromPrice: 'ab {price}',
  planCount: plural({ one: '{n} Tarif', other: '{n} Tarife' }),
  noResults: 'Keine Treffer für „{query}“. Versuchen Sie eine andere Schreibweise oder den Ländercode.',
  noDestinations: 'Zurzeit sind keine Reiseziele verfügbar. Bitte schauen Sie später wieder vorbei.',
  resultCount: plural({ one: '{n} Reiseziel gefunden', other: '{n} Reiseziele gefunden' }),
  startOver: 'Neu beginnen',

  errorNetwork: 'Sie scheinen offline zu sein. Wir versuchen es erneut, sobald Sie wieder online sind.',
  errorBusy: 'Gerade gibt es zu viele Anfragen. Bitte warten Sie kurz und versuchen Sie es erneut.',
  errorUnavailable: 'Der Shop ist vorübergehend nicht erreichbar.',
  errorSession: 'Ihre Sitzung ist abgelaufen. Bitte beginnen Sie neu.',
  errorStoreClosed: 'Dieser Shop ist auf dieser Website gerade nicht verfügbar.',
  errorMisconfigured:
    'Dieser Shop ist noch nicht für den Verkauf von eSIMs eingerichtet. Es wurde nichts berechnet. Bitte versuchen Sie es später erneut.',
  errorRefused:
    'Diese Anfrage konnte nicht ausgeführt werden. Es wurde nichts berechnet. Versuchen Sie es erneut oder wenden Sie sich an {brand}.',
  errorNotAvailableHere:
    'Dieser Shop ist auf dieser Website gerade nicht verfügbar. Bitte wenden Sie sich an {brand}.',
  errorPlanGone: 'Dieser Tarif ist nicht mehr verfügbar. Bitte wählen Sie einen anderen.',
  errorPriceChanged: 'Der Preis hat sich geändert. Bitte prüfen Sie den neuen Preis.',
  errorQuoteExpired: 'Die Preisreservierung ist abgelaufen. Bitte prüfen Sie den aktuellen Preis.',
  errorCannotSell:
    'Dieser Kauf kann gerade nicht abgeschlossen werden. Ihnen wurde nichts berechnet. Bitte wenden Sie sich an {brand}.',
  errorCannotSellPlan: 'Dieser Shop kann diesen Tarif gerade nicht verkaufen. Ihnen wurde nichts berechnet.',
  errorMoment: 'Der Shop braucht einen Moment. Bitte versuchen Sie es gleich noch einmal.',
  errorErased:
    'Die Angaben zu dieser eSIM wurden auf Ihren Wunsch gelöscht und können hier nicht mehr angezeigt werden. Hilfe erhalten Sie bei {brand}.',
  errorCheckoutLost:
    'Wir finden diesen Kauf nicht. Wenn Sie bezahlt haben, wenden Sie sich bitte an {brand}.',
  errorInvalid: 'Eine Eingabe wurde nicht akzeptiert. Bitte prüfen Sie sie und versuchen Sie es erneut.',
  errorLink: 'Der Link konnte nicht erstellt werden. Bitte versuchen Sie es erneut.',
  errorGeneric: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
  errorAfterPayment:
    'Ihr Kauf kann gerade nicht angezeigt werden. Falls Sie bezahlt haben und keine eSIM erhalten, erstattet {brand} Ihnen die Zahlung.',
  errorReference: 'Referenz: {id}',
  retry: 'Erneut versuchen',
  retryingIn: plural({ one: 'Neuer Versuch in {n} Sekunde.', other: 'Neuer Versuch in {n} Sekunden.' }),
  requote: 'Aktuellen Preis abrufen',
  otherPlan: 'Anderen Tarif wählen',
  contactSupport: '{brand} kontaktieren',
};
