/**
 * @module
 * The installation email's words in the widget's five languages, typed from English so that a missing key in
 * another language fails the type check. `{brand}`, `{destination}` and `{n}` are filled in when it is written
 * (`installation-email.ts`); the plan's title and destination come from the catalog in the checkout's language.
 */
import type { Locale } from '@esim-embed/shared';

/** The forms of a count's words by the language's plural category (`Intl.PluralRules`); `other` always. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const en = {
  subject: '{brand}: your eSIM for {destination} is ready',
  heading: 'Your eSIM is ready',
  intro:
    'Thank you for buying from {brand}. Install your eSIM before you travel, on the phone you take with you, and keep it switched off until you arrive.',
  planLabel: 'Plan',
  dataLabel: 'Data',
  validityLabel: 'Valid for',
  priceLabel: 'Paid',
  days: { one: '{n} day', other: '{n} days' } as PluralForms,
  installOnPhone: 'Reading this on the phone you travel with? Tap to install:',
  installIos: 'Install on iPhone',
  installAndroid: 'Install on Android',
  qrIntro: 'On another screen? Scan this QR code with the phone’s camera:',
  qrAlt: 'QR code that installs the eSIM',
  manualIntro: 'Or enter the details by hand:',
  smdpLabel: 'SM-DP+ address',
  activationLabel: 'Activation code',
  manageIntro: 'See the data you have left, top up or get help at any time:',
  manageLink: 'Open my eSIM',
  replyHint: 'Questions? Reply to this email.',
  supportContact: 'Questions? Contact {brand}:',
  keepPrivate: 'Keep this email to yourself: whoever has the QR code can install your eSIM.',
};

/** Every word of the email, as each language has them. */
export type InstallationEmailWords = {
  readonly [K in keyof typeof en]: (typeof en)[K] extends string ? string : PluralForms;
};

const de: InstallationEmailWords = {
  subject: '{brand}: Ihre eSIM für {destination} ist bereit',
  heading: 'Ihre eSIM ist bereit',
  intro:
    'Vielen Dank für Ihren Kauf bei {brand}. Installieren Sie die eSIM vor der Reise auf dem Telefon, das Sie mitnehmen, und schalten Sie sie erst am Ziel ein.',
  planLabel: 'Tarif',
  dataLabel: 'Daten',
  validityLabel: 'Gültig für',
  priceLabel: 'Bezahlt',
  days: { one: '{n} Tag', other: '{n} Tage' },
  installOnPhone: 'Lesen Sie dies auf dem Telefon, das Sie mitnehmen? Tippen Sie zum Installieren:',
  installIos: 'Auf dem iPhone installieren',
  installAndroid: 'Auf Android installieren',
  qrIntro: 'Auf einem anderen Bildschirm? Scannen Sie diesen QR-Code mit der Kamera des Telefons:',
  qrAlt: 'QR-Code, der die eSIM installiert',
  manualIntro: 'Oder geben Sie die Daten manuell ein:',
  smdpLabel: 'SM-DP+-Adresse',
  activationLabel: 'Aktivierungscode',
  manageIntro: 'Restliche Daten ansehen, aufladen oder Hilfe erhalten, jederzeit:',
  manageLink: 'Meine eSIM öffnen',
  replyHint: 'Fragen? Antworten Sie einfach auf diese E-Mail.',
  supportContact: 'Fragen? Wenden Sie sich an {brand}:',
  keepPrivate: 'Geben Sie diese E-Mail nicht weiter: Wer den QR-Code hat, kann Ihre eSIM installieren.',
};

const es: InstallationEmailWords = {
  subject: '{brand}: tu eSIM para {destination} está lista',
  heading: 'Tu eSIM está lista',
  intro:
    'Gracias por tu compra en {brand}. Instala la eSIM antes de viajar, en el teléfono que te llevas, y déjala desactivada hasta que llegues.',
  planLabel: 'Plan',
  dataLabel: 'Datos',
  validityLabel: 'Validez',
  priceLabel: 'Pagado',
  days: { one: '{n} día', other: '{n} días' },
  installOnPhone: '¿Lo lees en el teléfono con el que viajas? Toca para instalarla:',
  installIos: 'Instalar en iPhone',
  installAndroid: 'Instalar en Android',
  qrIntro: '¿En otra pantalla? Escanea este código QR con la cámara del teléfono:',
  qrAlt: 'Código QR que instala la eSIM',
  manualIntro: 'O introduce los datos a mano:',
  smdpLabel: 'Dirección SM-DP+',
  activationLabel: 'Código de activación',
  manageIntro: 'Consulta los datos que te quedan, recarga o pide ayuda cuando quieras:',
  manageLink: 'Abrir mi eSIM',
  replyHint: '¿Preguntas? Responde a este correo.',
  supportContact: '¿Preguntas? Contacta con {brand}:',
  keepPrivate: 'No compartas este correo: quien tenga el código QR puede instalar tu eSIM.',
};

const fr: InstallationEmailWords = {
  subject: '{brand} : votre eSIM est prête ({destination})',
  heading: 'Votre eSIM est prête',
  intro:
    'Merci pour votre achat chez {brand}. Installez l’eSIM avant le départ, sur le téléphone que vous emportez, et laissez-la désactivée jusqu’à l’arrivée.',
  planLabel: 'Forfait',
  dataLabel: 'Données',
  validityLabel: 'Validité',
  priceLabel: 'Payé',
  days: { one: '{n} jour', other: '{n} jours' },
  installOnPhone: 'Vous lisez ceci sur le téléphone que vous emportez ? Touchez pour installer :',
  installIos: 'Installer sur iPhone',
  installAndroid: 'Installer sur Android',
  qrIntro: 'Sur un autre écran ? Scannez ce code QR avec l’appareil photo du téléphone :',
  qrAlt: 'Code QR qui installe l’eSIM',
  manualIntro: 'Ou saisissez les informations manuellement :',
  smdpLabel: 'Adresse SM-DP+',
  activationLabel: 'Code d’activation',
  manageIntro: 'Consultez les données restantes, rechargez ou obtenez de l’aide à tout moment :',
  manageLink: 'Ouvrir mon eSIM',
  replyHint: 'Des questions ? Répondez simplement à cet e-mail.',
  supportContact: 'Des questions ? Contactez {brand} :',
  keepPrivate: 'Ne transférez pas cet e-mail : quiconque a le code QR peut installer votre eSIM.',
};

const ru: InstallationEmailWords = {
  subject: '{brand}: ваша eSIM готова ({destination})',
  heading: 'Ваша eSIM готова',
  intro:
    'Спасибо за покупку в {brand}. Установите eSIM до поездки на телефон, который берёте с собой, и включите её по прибытии.',
  planLabel: 'Тариф',
  dataLabel: 'Трафик',
  validityLabel: 'Срок',
  priceLabel: 'Оплачено',
  days: { one: '{n} день', few: '{n} дня', many: '{n} дней', other: '{n} дня' },
  installOnPhone: 'Читаете это на телефоне, с которым поедете? Нажмите, чтобы установить:',
  installIos: 'Установить на iPhone',
  installAndroid: 'Установить на Android',
  qrIntro: 'На другом экране? Отсканируйте QR-код камерой телефона:',
  qrAlt: 'QR-код для установки eSIM',
  manualIntro: 'Или введите данные вручную:',
  smdpLabel: 'Адрес SM-DP+',
  activationLabel: 'Код активации',
  manageIntro: 'Остаток трафика, пополнение и помощь — в любое время:',
  manageLink: 'Открыть мою eSIM',
  replyHint: 'Вопросы? Просто ответьте на это письмо.',
  supportContact: 'Вопросы? Обратитесь в {brand}:',
  keepPrivate: 'Не пересылайте это письмо: по QR-коду вашу eSIM может установить кто угодно.',
};

/** The email's words in each of the widget's languages. */
export const INSTALLATION_EMAIL_WORDS: Readonly<Record<Locale, InstallationEmailWords>> = {
  en,
  de,
  es,
  fr,
  ru,
};

/** `words` with each `{name}` replaced by its value (a name without one is left as written). */
export function fill(words: string, values: Readonly<Record<string, string | number>>): string {
  return words.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}

/** The words of a count in `locale` (`3 Tage`, `5 дней`). */
export function countWords(forms: PluralForms, n: number, locale: Locale): string {
  return fill(forms[new Intl.PluralRules(locale).select(n)] ?? forms.other, { n });
}
