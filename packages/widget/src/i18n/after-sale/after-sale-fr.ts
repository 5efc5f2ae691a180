/**
 * @module
 * French messages of the after-sale views (manage link, "my eSIM", top-up offers, help).
 */
import type { AfterSaleMessages } from '../messages';

export const afterSaleFr: AfterSaleMessages = {
  manageLinkHeading: 'Revenir à cette eSIM',
  manageLinkIntro:
    'Gardez ce lien pour consulter vos données, recharger ou obtenir de l’aide plus tard. Toute personne qui a ce lien peut ouvrir cette eSIM : ne le partagez pas.',
  manageLinkLabel: 'Lien vers votre eSIM',
  manageLinkCopy: 'Copier le lien',
  manageLinkShare: 'Partager le lien',
  manageLinkShow: 'Afficher le lien',
  manageLinkValidUntil: 'Le lien fonctionne jusqu’au {time}.',
  manageLinkFailed: 'Le lien vers cette eSIM n’a pas pu être créé. Votre eSIM n’est pas concernée.',
  manageLinkInvalid: 'Ce lien a expiré ou n’est plus valable. Demandez-en un nouveau à {brand}.',

  helpHeading: 'Besoin d’aide ?',
  helpInstallFailed: 'L’installation a échoué',
  helpNotWorking: 'L’eSIM ne fonctionne pas',
  helpInstallFailedAdvice:
    'Vérifiez que le téléphone est connecté à internet et compatible eSIM, puis réessayez le QR code ou la saisie manuelle. Si cela échoue encore, {brand} peut vous aider.',
  helpNotWorkingAdvice:
    'Activez l’eSIM et son itinérance des données, puis redémarrez le téléphone. Si elle ne fonctionne toujours pas, {brand} peut vous aider.',
  helpEmail: 'Écrire à {email}',

  myEsimHeading: 'Mon eSIM',
  planUnknown: 'Le détail du forfait n’est pas disponible.',
  usageHeading: 'Données',
  usageMeterLabel: 'Données utilisées',
  usageUsedOfTotal: '{used} utilisés sur {total}',
  usageLeft: 'Reste {left}',
  usageUsedUnlimited: '{used} utilisés (forfait illimité)',
  usageFresh: 'Mis à jour : {time}.',
  usageStale: 'Derniers chiffres connus, du {time} : ils peuvent être en retard.',
  usageStaleUndated: 'Derniers chiffres connus : ils peuvent être en retard.',
  usageUnavailable:
    'La consommation ne peut pas être affichée pour le moment. Votre connexion n’est pas concernée.',
  datesHeading: 'Dates',
  activatedAt: 'Activée',
  notActivated: 'Pas encore activée',
  activateBy: 'À installer et activer avant le',
  validUntil: 'Valable jusqu’au',
  stateExpired: 'Ce forfait a expiré.',
  stateDepleted: 'Toutes les données ont été utilisées.',
  stateRevoked: 'Cette eSIM n’est plus active.',
  notInstalled: 'Cette eSIM n’est pas encore installée.',
  showInstallation: 'Afficher l’installation',

  topUpIntro: 'Ajouter des données à cette eSIM :',
  topUpChoose: 'Ajouter',
  topUpChooseLabel: 'Ajouter {plan}, {price}',
  topUpNone: 'Aucune recharge n’est proposée pour cette eSIM pour le moment.',
  topUpNotSupported:
    'Cette eSIM ne peut pas être rechargée. Pour rester connecté, achetez une nouvelle eSIM.',
  topUpNotEnabled: '{brand} ne propose pas de recharge pour cette eSIM.',
  topUpCompatibilityUnverified:
    'Nous ne pouvons pas encore confirmer qu’une recharge fonctionne avec cette eSIM, nous n’en proposons donc pas. Revenez plus tard.',
  topUpTemporarilyUnavailable:
    'Les recharges sont momentanément indisponibles. Réessayez dans quelques minutes.',
  topUpProfileIneligible:
    'Cette eSIM ne peut pas être rechargée dans son état actuel (par exemple expirée ou non installée).',
  checkAgain: 'Vérifier à nouveau',
  toppedUp: 'Votre recharge est sur l’eSIM. Les chiffres peuvent mettre quelques minutes à se mettre à jour.',
};
