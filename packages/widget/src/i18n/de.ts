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
  back: 'Zurück',

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

  plansHeading: 'eSIM-Tarife für {destination}',
  sortBy: 'Sortieren nach',
  sortPrice: 'Preis',
  sortData: 'Datenvolumen',
  noPlans: 'Für dieses Reiseziel gibt es zurzeit keine Tarife.',
  days: plural({ one: '{n} Tag', other: '{n} Tage' }),
  fiveG: '5G',
  hotspot: 'Hotspot',
  topUp: 'Aufladbar',
  networks: 'Netze: {list}',
  startsPurchase: 'Die Laufzeit beginnt mit dem Kauf',
  startsInstallation: 'Die Laufzeit beginnt mit der Installation',
  startsConnection: 'Die Laufzeit beginnt mit der ersten Verbindung',
  startsUnknown: 'Die Laufzeit beginnt mit der Aktivierung',
  activationWindow: plural({
    one: 'Innerhalb von {n} Tag aktivieren',
    other: 'Innerhalb von {n} Tagen aktivieren',
  }),
  choosePlan: 'Auswählen',
  choosePlanLabel: '{plan} für {price} auswählen',

  checkoutHeading: 'Ihre eSIM',
  quoting: 'Der Preis wird für Sie reserviert…',
  priceHeld: 'Preis reserviert für {time}',
  requoting: 'Die Preisreservierung ist abgelaufen. Der aktuelle Preis wird geholt…',
  priceChanged: 'Der Preis hat sich von {old} auf {new} geändert.',
  emailLabel: 'E-Mail',
  emailHintPlatform: 'Die Installationsdaten werden an diese Adresse gesendet.',
  emailHintPartner: '{brand} sendet die Installationsdaten an diese Adresse.',
  emailHintPartnerOptional: 'Optional: {brand} sendet eine Kopie der Installationsdaten an diese Adresse.',
  emailMissing: 'Geben Sie Ihre E-Mail-Adresse ein.',
  emailInvalid: 'Geben Sie eine E-Mail-Adresse wie name@beispiel.de ein.',
  termsConsent: 'Ich akzeptiere die AGB und die Datenschutzerklärung von {brand}.',
  termsMissing: 'Akzeptieren Sie die AGB, um fortzufahren.',
  buy: 'Für {price} kaufen',
  placing: 'Ihre Bestellung wird aufgegeben…',

  paymentHeading: 'Zahlung abschließen',
  paymentWaiting:
    'Schließen Sie die Zahlung auf dieser Seite ab. Es geht weiter, sobald {brand} sie bestätigt.',
  paymentWindow: 'Verbleibende Zeit für die Zahlung: {time}',
  cancel: 'Abbrechen',
  progressHeading: 'Ihre eSIM wird vorbereitet',
  statusAwaitingPayment: 'Warten auf die Zahlung',
  statusPlacing: 'Bestellung wird aufgegeben',
  statusProvisioning: 'Ihre eSIM wird ausgestellt',
  statusReady: 'Ihre eSIM ist bereit',
  progressPatience: 'Das dauert meist weniger als eine Minute.',
  progressSlow: 'Das dauert länger als üblich. Lassen Sie diese Seite offen; wir prüfen weiter.',
  headingCancelled: 'Kauf abgebrochen',
  headingExpired: 'Zahlungsfrist abgelaufen',
  headingFailed: 'Kauf fehlgeschlagen',
  statusFailed: 'Ihre eSIM konnte nicht ausgestellt werden. Sie wurde Ihnen nicht berechnet.',
  statusExpired: 'Die Zahlung wurde nicht rechtzeitig abgeschlossen.',
  statusCancelled: 'Der Kauf wurde storniert.',
  statusFailedRefund:
    'Ihre eSIM konnte nicht ausgestellt werden. {brand} erstattet Ihnen die Zahlung jetzt; Ihre Bank zeigt die Erstattung eventuell erst nach einigen Tagen an.',
  statusExpiredRefund:
    'Die Zahlung wurde nicht rechtzeitig abgeschlossen. Falls Geld abgebucht wurde, erstattet {brand} es Ihnen.',
  statusCancelledRefund: 'Der Kauf wurde storniert. Falls Geld abgebucht wurde, erstattet {brand} es Ihnen.',
  headingDeclined: 'Zahlung abgelehnt',
  paymentDeclined:
    'Ihre Zahlung wurde abgelehnt. Versuchen Sie es mit einer anderen Karte oder Zahlungsart; der Preis bleibt für Sie reserviert.',
  tryAnotherCard: 'Andere Karte versuchen',
  startOver: 'Neu beginnen',
  buyAnother: 'Weitere eSIM kaufen',

  installHeading: 'eSIM installieren',
  installIntro:
    'Installieren Sie sie vor der Reise auf dem Telefon, das Sie mitnehmen. Schalten Sie sie erst am Ziel ein.',
  qrIntro: 'Scannen Sie diesen QR-Code mit der Kamera des Telefons:',
  qrLabel: 'QR-Code, der die eSIM installiert',
  installIos: 'Auf dem iPhone installieren',
  installAndroid: 'Auf Android installieren',
  manualHeading: 'Oder manuell eingeben',
  smdpLabel: 'SM-DP+-Adresse',
  activationLabel: 'Aktivierungscode',
  copy: 'Kopieren',
  copyLabel: '{what} kopieren',
  copied: '{what} kopiert',
  iosStepsHeading: 'Auf dem iPhone',
  iosSteps:
    'Öffnen Sie Einstellungen → Mobilfunk → eSIM hinzufügen.|Wählen Sie „QR-Code verwenden“ und scannen Sie den Code oder tippen Sie auf „Details manuell eingeben“.|Benennen Sie den Tarif, behalten Sie Ihre Hauptleitung für Anrufe und schalten Sie am Ziel Datenroaming für die eSIM ein.',
  androidStepsHeading: 'Auf Android',
  androidSteps:
    'Öffnen Sie Einstellungen → Netzwerk & Internet → SIMs → eSIM hinzufügen.|Scannen Sie den QR-Code oder wählen Sie „Code manuell eingeben“.|Schalten Sie am Ziel die eSIM und ihr Datenroaming ein.',
  sendToPhone: 'An mein Telefon senden',
  sendToPhoneIntro:
    'Am Computer? Scannen Sie dies mit der Kamera Ihres Telefons oder öffnen Sie den Link dort.',
  linkLabel: 'Installationslink',
  linkQrLabel: 'QR-Code mit dem Installationslink',
  linkValidUntil: 'Der Link gilt bis {time}.',

  errorNetwork: 'Sie scheinen offline zu sein. Wir versuchen es erneut, sobald Sie wieder online sind.',
  errorBusy: 'Gerade gibt es zu viele Anfragen. Bitte warten Sie kurz und versuchen Sie es erneut.',
  errorUnavailable:
    'Der Shop ist vorübergehend nicht erreichbar. Bitte versuchen Sie es in einer Minute erneut.',
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
  errorCheckoutLost:
    'Wir finden diesen Kauf nicht. Wenn Sie bezahlt haben, wenden Sie sich bitte an {brand}.',
  errorInvalid: 'Eine Eingabe wurde nicht akzeptiert. Bitte prüfen Sie sie und versuchen Sie es erneut.',
  errorLink: 'Der Link konnte nicht erstellt werden. Bitte versuchen Sie es erneut.',
  errorGeneric: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
  errorAfterPayment:
    'Der Stand Ihres Kaufs kann gerade nicht angezeigt werden. Falls Sie bezahlt haben und keine eSIM erhalten, erstattet {brand} Ihnen die Zahlung. Bitte wenden Sie sich an {brand}.',
  errorReference: 'Referenz: {id}',
  retry: 'Erneut versuchen',
  requote: 'Aktuellen Preis abrufen',
  otherPlan: 'Anderen Tarif wählen',
  contactSupport: '{brand} kontaktieren',

  topUpHeading: 'Aufladen',
  statusToppingUp: 'Datenvolumen wird hinzugefügt',
  statusToppedUp: 'Die Aufladung ist erledigt',
  statusTopUpFailed: 'Die Aufladung war nicht möglich. Sie wurde Ihnen nicht berechnet.',
  statusTopUpFailedRefund:
    'Die Aufladung war nicht möglich. {brand} erstattet Ihnen die Zahlung jetzt; Ihre Bank zeigt die Erstattung eventuell erst nach einigen Tagen an.',
  backToMyEsim: 'Zurück zu meiner eSIM',
};
