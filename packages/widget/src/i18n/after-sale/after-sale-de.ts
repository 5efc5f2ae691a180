/**
 * @module
 * German messages of the after-sale views (manage link, "my eSIM", top-up offers, help).
 */
import type { AfterSaleMessages } from '../messages';

export const afterSaleDe: AfterSaleMessages = {
  manageLinkHeading: 'Zurück zu dieser eSIM',
  manageLinkIntro:
    'Bewahren Sie diesen Link auf, um später Ihr Datenvolumen zu prüfen, aufzuladen oder Hilfe zu erhalten. Wer den Link hat, kann diese eSIM öffnen: Geben Sie ihn nicht weiter.',
  manageLinkLabel: 'Link zu Ihrer eSIM',
  manageLinkCopy: 'Link kopieren',
  manageLinkShare: 'Link teilen',
  manageLinkShow: 'Link anzeigen',
  manageLinkValidUntil: 'Der Link gilt bis {time}.',
  manageLinkFailed:
    'Der Link zu dieser eSIM konnte nicht erstellt werden. Ihre eSIM ist davon nicht betroffen.',
  manageLinkInvalid:
    'Dieser Link ist abgelaufen oder nicht mehr gültig. Bitte fragen Sie {brand} nach einem neuen.',

  helpHeading: 'Brauchen Sie Hilfe?',
  helpInstallFailed: 'Die Installation ist fehlgeschlagen',
  helpNotWorking: 'Die eSIM funktioniert nicht',
  helpInstallFailedAdvice:
    'Prüfen Sie, ob das Telefon online ist und eSIM unterstützt, und versuchen Sie den QR-Code oder die manuelle Eingabe erneut. Klappt es weiterhin nicht, hilft {brand}.',
  helpNotWorkingAdvice:
    'Schalten Sie die eSIM und Daten-Roaming dafür ein und starten Sie das Telefon neu. Funktioniert es weiterhin nicht, hilft {brand}.',
  helpEmail: 'E-Mail an {email}',

  myEsimHeading: 'Meine eSIM',
  planUnknown: 'Die Details des Tarifs sind nicht verfügbar.',
  usageHeading: 'Daten',
  usageMeterLabel: 'Verbrauchte Daten',
  usageUsedOfTotal: '{used} von {total} verbraucht',
  usageLeft: 'Noch {left}',
  usageUsedUnlimited: '{used} verbraucht (unbegrenzter Tarif)',
  usageFresh: 'Aktualisiert: {time}.',
  usageStale: 'Letzter bekannter Stand vom {time}: Er kann veraltet sein.',
  usageStaleUndated: 'Letzter bekannter Stand: Er kann veraltet sein.',
  usageUnavailable:
    'Der Datenverbrauch kann gerade nicht angezeigt werden. Ihre Verbindung ist davon nicht betroffen.',
  datesHeading: 'Daten und Fristen',
  activatedAt: 'Aktiviert',
  notActivated: 'Noch nicht aktiviert',
  activateBy: 'Installieren und aktivieren bis',
  validUntil: 'Gültig bis',
  stateExpired: 'Dieser Tarif ist abgelaufen.',
  stateDepleted: 'Das gesamte Datenvolumen ist verbraucht.',
  stateRevoked: 'Diese eSIM ist nicht mehr aktiv.',
  notInstalled: 'Diese eSIM ist noch nicht installiert.',
  showInstallation: 'Installation anzeigen',

  topUpIntro: 'Datenvolumen für diese eSIM hinzufügen:',
  topUpChoose: 'Hinzufügen',
  topUpChooseLabel: '{plan} hinzufügen, {price}',
  topUpNone: 'Für diese eSIM gibt es gerade keine Aufladungen.',
  topUpNotSupported:
    'Diese eSIM kann nicht aufgeladen werden. Um verbunden zu bleiben, kaufen Sie eine neue eSIM.',
  topUpNotEnabled: '{brand} bietet für diese eSIM keine Aufladungen an.',
  topUpCompatibilityUnverified:
    'Wir können noch nicht bestätigen, dass eine Aufladung mit dieser eSIM funktioniert, daher bieten wir keine an. Bitte prüfen Sie es später erneut.',
  topUpTemporarilyUnavailable:
    'Aufladungen sind vorübergehend nicht möglich. Bitte prüfen Sie es in ein paar Minuten erneut.',
  topUpProfileIneligible:
    'Diese eSIM kann in ihrem aktuellen Zustand nicht aufgeladen werden (zum Beispiel abgelaufen oder nicht installiert).',
  checkAgain: 'Erneut prüfen',
  toppedUp: 'Die Aufladung ist auf der eSIM. Die Zahlen können einige Minuten nachhinken.',
};
