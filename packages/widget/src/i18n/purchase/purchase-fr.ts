/**
 * @module
 * French messages of the purchase (plans, checkout, progress, installation).
 */
import { type PurchaseMessages, plural } from '../messages';

export const purchaseFr: PurchaseMessages = {
  back: 'Retour',

  plansHeading: 'Forfaits eSIM pour {destination}',
  sortBy: 'Trier par',
  sortPrice: 'Prix',
  sortData: 'Données',
  noPlans: 'Aucun forfait pour cette destination pour le moment.',
  days: plural({ one: '{n} jour', many: '{n} jours', other: '{n} jours' }),
  fiveG: '5G',
  hotspot: 'Partage de connexion',
  topUp: 'Rechargeable',
  networks: 'Réseaux : {list}',
  startsPurchase: 'La validité commence à l’achat',
  startsInstallation: 'La validité commence à l’installation',
  startsConnection: 'La validité commence à la première connexion',
  startsUnknown: 'La validité commence à l’activation',
  activationWindow: plural({
    one: 'À activer sous {n} jour',
    many: 'À activer sous {n} jours',
    other: 'À activer sous {n} jours',
  }),
  choosePlan: 'Choisir',
  choosePlanLabel: 'Choisir {plan}, {price}',

  checkoutHeading: 'Votre commande',
  quoting: 'Nous réservons le prix…',
  priceHeld: 'Prix réservé pendant {time}',
  requoting: 'La réservation du prix a expiré. Nous obtenons un nouveau prix…',
  priceChanged: 'Le prix est passé de {old} à {new}.',
  emailLabel: 'E-mail',
  emailHintPlatform: 'Les informations d’installation sont envoyées à cette adresse.',
  emailHintPartner: '{brand} envoie les informations d’installation à cette adresse.',
  emailHintPartnerOptional:
    'Facultatif : {brand} envoie une copie des informations d’installation à cette adresse.',
  emailHintRequired: 'Votre adresse e-mail est nécessaire pour cette commande.',
  emailSent: 'La commande est passée avec cette adresse.',
  earlierPurchaseUnconfirmed:
    'Une commande passée plus tôt sur cette page n’a pas pu être confirmée et a peut-être abouti. Demandez à {brand} avant d’acheter à nouveau.',
  emailMissing: 'Saisissez votre adresse e-mail.',
  emailInvalid: 'Saisissez une adresse comme nom@exemple.fr.',
  termsConsent: 'J’accepte les conditions et la politique de confidentialité de {brand}.',
  termsMissing: 'Acceptez les conditions pour continuer.',
  buyConsent: 'En achetant, vous acceptez les {terms} et la {privacy} de {brand}.',
  consentTerms: 'conditions',
  consentPrivacy: 'politique de confidentialité',
  buy: 'Acheter pour {price}',
  placing: 'Commande en cours…',

  paymentHeading: 'Finalisez le paiement',
  paymentWaiting: 'Terminez le paiement sur cette page. Nous continuons dès que {brand} le confirme.',
  paymentWindow: 'Temps restant pour payer : {time}',
  cancel: 'Annuler',
  progressHeading: 'Préparation de votre eSIM',
  statusAwaitingPayment: 'En attente du paiement',
  statusPlacing: 'Commande en cours',
  statusProvisioning: 'Émission de votre eSIM',
  statusReady: 'Votre eSIM est prête',
  progressPatience: 'Cela prend en général moins d’une minute.',
  progressSlow:
    'Cela prend plus de temps que d’habitude. Gardez cette page ouverte ; nous continuons à vérifier.',
  headingCancelled: 'Achat annulé',
  headingExpired: 'Délai de paiement dépassé',
  headingFailed: 'L’achat a échoué',
  statusFailed: 'Nous n’avons pas pu émettre votre eSIM. Elle ne vous a pas été facturée.',
  statusExpired: 'Le paiement n’a pas été finalisé à temps.',
  statusCancelled: 'L’achat a été annulé.',
  statusFailedRefund: 'Nous n’avons pas pu émettre votre eSIM. {brand} vous rembourse maintenant.',
  statusExpiredRefund:
    'Le paiement n’a pas été finalisé à temps. Si un montant a été débité, {brand} vous le rembourse.',
  statusCancelledRefund: 'L’achat a été annulé. Si un montant a été débité, {brand} vous le rembourse.',
  headingDeclined: 'Paiement refusé',
  paymentDeclined: 'Votre paiement a été refusé. Essayez une autre carte ou un autre moyen de paiement.',
  paymentDeclinedAgain:
    'Votre paiement a été refusé {count} fois. Essayez une autre carte ou un autre moyen de paiement, ou contactez {brand}.',
  paymentDeclinedLimit:
    'Votre paiement a été refusé trop de fois : aucune autre tentative n’est possible pour cet achat. Contactez {brand} ou annulez.',
  tryAnotherCard: 'Essayer une autre carte',
  buyAnother: 'Acheter une autre eSIM',

  installHeading: 'Installez votre eSIM',
  installIntro:
    'Installez-la avant le départ, sur le téléphone que vous emportez. Laissez-la désactivée jusqu’à l’arrivée.',
  qrIntro: 'Scannez ce code QR avec l’appareil photo du téléphone :',
  qrOtherDeviceHeading: 'Pour l’installer sur un autre téléphone ou une tablette',
  qrOtherDeviceIntro: 'Scannez ce code QR avec l’autre téléphone ou la tablette :',
  qrLabel: 'Code QR qui installe l’eSIM',
  installIos: 'Installer sur iPhone',
  installAndroid: 'Installer sur Android',
  manualHeading: 'Ou saisissez-la manuellement',
  smdpLabel: 'Adresse SM-DP+',
  activationLabel: 'Code d’activation',
  copy: 'Copier',
  copyLabel: 'Copier : {what}',
  copied: '{what} : copié',
  iosStepsHeading: 'Sur iPhone',
  iosSteps:
    'Ouvrez Réglages → Données cellulaires → Ajouter une eSIM.|Choisissez « Utiliser un code QR » et scannez-le, ou touchez « Saisir les détails manuellement ».|Nommez le forfait, gardez votre ligne principale pour les appels et activez l’itinérance des données de l’eSIM à l’arrivée.',
  androidStepsHeading: 'Sur Android',
  androidSteps:
    'Ouvrez Paramètres → Réseau et Internet → SIM → Ajouter une eSIM.|Scannez le code QR ou choisissez de saisir le code manuellement.|À l’arrivée, activez l’eSIM et son itinérance des données.',
  sendToPhone: 'Envoyer sur mon téléphone',
  sendToPhoneIntro:
    'Sur un ordinateur ? Scannez ceci avec l’appareil photo du téléphone ou ouvrez le lien sur celui-ci.',
  linkLabel: 'Lien d’installation',
  linkQrLabel: 'Code QR contenant le lien d’installation',
  linkValidUntil: 'Le lien fonctionne jusqu’à {time}.',

  topUpHeading: 'Recharger',
  statusToppingUp: 'Ajout des données à votre eSIM',
  statusToppedUp: 'Votre recharge est faite',
  statusTopUpFailed: 'La recharge n’a pas pu être ajoutée. Elle ne vous a pas été facturée.',
  statusTopUpFailedRefund: 'La recharge n’a pas pu être ajoutée. {brand} vous rembourse maintenant.',
  backToMyEsim: 'Retour à mon eSIM',
};
