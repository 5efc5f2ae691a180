/**
 * @module
 * French messages.
 */
import { type Messages, plural } from './messages';

export const fr: Messages = {
  loading: 'Chargement…',
  testMode: 'Mode test',
  testModeHint: ' : aucun achat réel',
  soldBy: 'Vendu par {brand}',
  support: 'Aide',
  terms: 'Conditions',
  privacy: 'Confidentialité',

  destinationsHeading: 'Où partez-vous ?',
  searchLabel: 'Pays, région ou code',
  searchHint: 'Saisissez un pays dans n’importe quelle langue ou son code à deux lettres.',
  popular: 'Destinations populaires',
  countries: 'Pays',
  regions: 'Régions',
  searchResults: 'Résultats',
  fromPrice: 'à partir de {price}',
  planCount: plural({ one: '{n} forfait', many: '{n} forfaits', other: '{n} forfaits' }),
  noResults:
    'Aucun résultat pour « {query} ». Essayez une autre orthographe ou le code du pays à deux lettres.',
  noDestinations: 'Aucune destination n’est disponible pour le moment. Revenez plus tard.',
  resultCount: plural({
    one: '{n} destination trouvée',
    many: '{n} destinations trouvées',
    other: '{n} destinations trouvées',
  }),
  startOver: 'Recommencer',

  errorNetwork: 'Vous semblez hors ligne. Nous réessayons dès que la connexion revient.',
  errorBusy: 'Trop de demandes pour le moment. Patientez un instant puis réessayez.',
  errorUnavailable: 'La boutique est momentanément indisponible.',
  errorSession: 'Votre session a expiré. Recommencez.',
  errorStoreClosed: 'Cette boutique n’est pas disponible sur ce site pour le moment.',
  errorMisconfigured:
    'Cette boutique n’est pas encore prête à vendre des eSIM. Rien n’a été débité. Réessayez plus tard.',
  errorRefused: 'Cette demande n’a pas pu aboutir. Rien n’a été débité. Réessayez ou contactez {brand}.',
  errorNotAvailableHere: 'Cette boutique n’est pas disponible sur ce site pour le moment. Contactez {brand}.',
  errorPlanGone: 'Ce forfait n’est plus disponible. Choisissez-en un autre.',
  errorPriceChanged: 'Le prix a changé. Vérifiez le nouveau prix.',
  errorQuoteExpired: 'La réservation du prix a expiré. Vérifiez le prix actuel.',
  errorCannotSell:
    'Cet achat ne peut pas être finalisé pour le moment. Rien ne vous a été facturé. Contactez {brand}.',
  errorCannotSellPlan:
    'Cette boutique ne peut pas vendre ce forfait pour le moment. Rien ne vous a été facturé.',
  errorMoment: 'La boutique a besoin d’un instant. Réessayez dans un moment.',
  errorErased:
    'Les informations de cette eSIM ont été effacées à votre demande et ne peuvent plus être affichées ici. Pour de l’aide, contactez {brand}.',
  errorCheckoutLost: 'Nous ne trouvons pas cet achat. Si vous l’avez payé, contactez {brand}.',
  errorInvalid: 'Une saisie n’a pas été acceptée. Vérifiez-la et réessayez.',
  errorLink: 'Le lien n’a pas pu être créé. Réessayez.',
  errorGeneric: 'Un problème est survenu. Réessayez.',
  errorAfterPayment:
    'Nous ne pouvons pas afficher votre achat pour le moment. Si vous avez payé sans recevoir d’eSIM, {brand} vous rembourse.',
  errorReference: 'Référence : {id}',
  retry: 'Réessayer',
  retryingIn: plural({
    one: 'Nouvel essai dans {n} seconde.',
    many: 'Nouvel essai dans {n} secondes.',
    other: 'Nouvel essai dans {n} secondes.',
  }),
  requote: 'Voir le prix actuel',
  otherPlan: 'Choisir un autre forfait',
  contactSupport: 'Contacter {brand}',
};
