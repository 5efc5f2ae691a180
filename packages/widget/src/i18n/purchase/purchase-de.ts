/**
 * @module
 * German messages of the purchase (plans, checkout, progress, installation).
 */
import { type PurchaseMessages, plural } from '../messages';

export const purchaseDe: PurchaseMessages = {
  back: 'Zurück',

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

  checkoutHeading: 'Ihre Bestellung',
  quoting: 'Der Preis wird für Sie reserviert…',
  priceHeld: 'Preis reserviert für {time}',
  requoting: 'Die Preisreservierung ist abgelaufen. Der aktuelle Preis wird geholt…',
  priceChanged: 'Der Preis hat sich von {old} auf {new} geändert.',
  emailLabel: 'E-Mail',
  emailHintPlatform: 'Die Installationsdaten werden an diese Adresse gesendet.',
  emailHintPartner: '{brand} sendet die Installationsdaten an diese Adresse.',
  emailHintPartnerOptional: 'Optional: {brand} sendet eine Kopie der Installationsdaten an diese Adresse.',
  emailHintRequired: 'Ihre E-Mail-Adresse wird für diese Bestellung benötigt.',
  emailSent: 'Die Bestellung wird mit dieser Adresse aufgegeben.',
  earlierPurchaseUnconfirmed:
    'Eine frühere Bestellung auf dieser Seite konnte nicht bestätigt werden und ist vielleicht erfolgt. Fragen Sie {brand}, bevor Sie erneut kaufen.',
  emailMissing: 'Geben Sie Ihre E-Mail-Adresse ein.',
  emailInvalid: 'Geben Sie eine E-Mail-Adresse wie name@beispiel.de ein.',
  termsConsent: 'Ich akzeptiere die AGB und die Datenschutzerklärung von {brand}.',
  termsMissing: 'Akzeptieren Sie die AGB, um fortzufahren.',
  buyConsent: 'Mit dem Kauf akzeptieren Sie die {terms} und die {privacy} von {brand}.',
  consentTerms: 'AGB',
  consentPrivacy: 'Datenschutzerklärung',
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
  statusFailedRefund: 'Ihre eSIM konnte nicht ausgestellt werden. {brand} erstattet Ihnen die Zahlung jetzt.',
  statusExpiredRefund:
    'Die Zahlung wurde nicht rechtzeitig abgeschlossen. Falls Geld abgebucht wurde, erstattet {brand} es Ihnen.',
  statusCancelledRefund: 'Der Kauf wurde storniert. Falls Geld abgebucht wurde, erstattet {brand} es Ihnen.',
  headingDeclined: 'Zahlung abgelehnt',
  paymentDeclined: 'Ihre Zahlung wurde abgelehnt. Versuchen Sie es mit einer anderen Karte oder Zahlungsart.',
  paymentDeclinedAgain:
    'Ihre Zahlung wurde {count}-mal abgelehnt. Versuchen Sie eine andere Karte oder Zahlungsart, oder wenden Sie sich an {brand}.',
  paymentDeclinedLimit:
    'Ihre Zahlung wurde zu oft abgelehnt: Für diesen Kauf sind keine weiteren Versuche möglich. Wenden Sie sich an {brand} oder brechen Sie ab.',
  tryAnotherCard: 'Andere Karte versuchen',
  buyAnother: 'Weitere eSIM kaufen',

  installHeading: 'eSIM installieren',
  installIntro:
    'Installieren Sie sie vor der Reise auf dem Telefon, das Sie mitnehmen. Schalten Sie sie erst am Ziel ein.',
  qrIntro: 'Scannen Sie diesen QR-Code mit der Kamera des Telefons:',
  qrOtherDeviceHeading: 'Auf einem anderen Telefon oder Tablet installieren',
  qrOtherDeviceIntro: 'Scannen Sie diesen QR-Code mit der Kamera des anderen Geräts:',
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

  topUpHeading: 'Aufladen',
  statusToppingUp: 'Datenvolumen wird hinzugefügt',
  statusToppedUp: 'Die Aufladung ist erledigt',
  statusTopUpFailed: 'Die Aufladung war nicht möglich. Sie wurde Ihnen nicht berechnet.',
  statusTopUpFailedRefund: 'Die Aufladung war nicht möglich. {brand} erstattet Ihnen die Zahlung jetzt.',
  backToMyEsim: 'Zurück zu meiner eSIM',
};
