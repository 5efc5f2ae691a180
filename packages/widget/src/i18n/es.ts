/**
 * @module
 * Spanish messages.
 */
import { type Messages, plural } from './messages';

export const es: Messages = {
  loading: 'Cargando…',
  testMode: 'Modo de prueba',
  testModeHint: ': no es una compra real',
  soldBy: 'Vendido por {brand}',
  support: 'Ayuda',
  terms: 'Condiciones',
  privacy: 'Privacidad',

  destinationsHeading: '¿Adónde viajas?',
  searchLabel: 'País, región o código',
  searchHint: 'Escribe un país en cualquier idioma o su código de dos letras.',
  popular: 'Destinos populares',
  countries: 'Países',
  regions: 'Regiones',
  searchResults: 'Resultados',
  fromPrice: 'desde {price}',
  planCount: plural({ one: '{n} plan', many: '{n} planes', other: '{n} planes' }),
  noResults: 'No hay resultados para «{query}». Prueba otra grafía o el código de dos letras del país.',
  noDestinations: 'Ahora mismo no hay destinos disponibles. Vuelve más tarde.',
  resultCount: plural({
    one: '{n} destino encontrado',
    many: '{n} destinos encontrados',
    other: '{n} destinos encontrados',
  }),
  startOver: 'Empezar de nuevo',

  errorNetwork: 'Parece que no tienes conexión. Lo intentamos de nuevo en cuanto vuelva.',
  errorBusy: 'Hay demasiadas solicitudes. Espera un momento y vuelve a intentarlo.',
  errorUnavailable: 'La tienda no está disponible temporalmente.',
  errorSession: 'Tu sesión ha caducado. Empieza de nuevo.',
  errorStoreClosed: 'Esta tienda no está disponible en este sitio ahora mismo.',
  errorMisconfigured:
    'Esta tienda aún no está preparada para vender eSIM. No se te ha cobrado. Inténtalo de nuevo más tarde.',
  errorRefused:
    'No se ha podido completar esta solicitud. No se te ha cobrado. Inténtalo de nuevo o contacta con {brand}.',
  errorNotAvailableHere: 'Esta tienda no está disponible en este sitio ahora mismo. Contacta con {brand}.',
  errorPlanGone: 'Este plan ya no está disponible. Elige otro.',
  errorPriceChanged: 'El precio ha cambiado. Revisa el nuevo precio.',
  errorQuoteExpired: 'La reserva del precio ha caducado. Revisa el precio actual.',
  errorCannotSell: 'Ahora no se puede completar esta compra. No se te ha cobrado. Contacta con {brand}.',
  errorCannotSellPlan: 'Esta tienda no puede vender este plan ahora mismo. No se te ha cobrado nada.',
  errorMoment: 'La tienda necesita un momento. Vuelve a intentarlo enseguida.',
  errorErased:
    'Los datos de esta eSIM se borraron a petición tuya, así que ya no se pueden mostrar aquí. Si necesitas ayuda, contacta con {brand}.',
  errorCheckoutLost: 'No encontramos esta compra. Si la pagaste, contacta con {brand}.',
  errorInvalid: 'Algún dato no se ha aceptado. Revísalo y vuelve a intentarlo.',
  errorLink: 'No se ha podido crear el enlace. Vuelve a intentarlo.',
  errorGeneric: 'Algo ha salido mal. Vuelve a intentarlo.',
  errorAfterPayment:
    'Ahora no podemos mostrar tu compra. Si pagaste y no recibes la eSIM, {brand} te devuelve el dinero.',
  errorReference: 'Referencia: {id}',
  retry: 'Reintentar',
  retryingIn: plural({
    one: 'Lo intentaremos de nuevo en {n} segundo.',
    many: 'Lo intentaremos de nuevo en {n} segundos.',
    other: 'Lo intentaremos de nuevo en {n} segundos.',
  }),
  requote: 'Ver el precio actual',
  otherPlan: 'Elegir otro plan',
  contactSupport: 'Contactar con {brand}',
};
