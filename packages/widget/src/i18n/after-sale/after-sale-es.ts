/**
 * @module
 * Spanish messages of the after-sale views (manage link, "my eSIM", top-up offers, help).
 */
import type { AfterSaleMessages } from '../messages';

export const afterSaleEs: AfterSaleMessages = {
  manageLinkHeading: 'Vuelve a esta eSIM',
  manageLinkIntro:
    'Guarda este enlace para consultar tus datos, recargar o pedir ayuda más tarde. Quien tenga el enlace puede abrir esta eSIM, así que no lo compartas.',
  manageLinkLabel: 'Enlace a tu eSIM',
  manageLinkCopy: 'Copiar enlace',
  manageLinkShare: 'Compartir enlace',
  manageLinkShow: 'Mostrar enlace',
  manageLinkValidUntil: 'El enlace funciona hasta el {time}.',
  manageLinkFailed: 'No se pudo crear el enlace a esta eSIM. Tu eSIM no se ve afectada.',
  manageLinkInvalid: 'Este enlace ha caducado o ya no es válido. Pide uno nuevo a {brand}.',

  helpHeading: '¿Necesitas ayuda?',
  helpInstallFailed: 'La instalación falló',
  helpNotWorking: 'La eSIM no funciona',
  helpInstallFailedAdvice:
    'Comprueba que el teléfono tiene internet y admite eSIM, y vuelve a probar el código QR o los datos manuales. Si sigue fallando, {brand} puede ayudarte.',
  helpNotWorkingAdvice:
    'Activa la eSIM y su itinerancia de datos, y reinicia el teléfono. Si sigue sin funcionar, {brand} puede ayudarte.',
  helpEmail: 'Escribir a {email}',

  myEsimHeading: 'Mi eSIM',
  planUnknown: 'Los detalles del plan no están disponibles.',
  usageHeading: 'Datos',
  usageMeterLabel: 'Datos usados',
  usageUsedOfTotal: '{used} usados de {total}',
  usageLeft: 'Quedan {left}',
  usageUsedUnlimited: '{used} usados (plan ilimitado)',
  usageFresh: 'Actualizado: {time}.',
  usageStale: 'Últimas cifras conocidas, del {time}: pueden estar desfasadas.',
  usageStaleUndated: 'Últimas cifras conocidas: pueden estar desfasadas.',
  usageUnavailable: 'Ahora no se puede mostrar el consumo de datos. Tu conexión no se ve afectada.',
  datesHeading: 'Fechas',
  activatedAt: 'Activada',
  notActivated: 'Aún no activada',
  activateBy: 'Instalar y activar antes del',
  validUntil: 'Válida hasta',
  stateExpired: 'Este plan ha caducado.',
  stateDepleted: 'Se han usado todos los datos.',
  stateRevoked: 'Esta eSIM ya no está activa.',
  notInstalled: 'Esta eSIM aún no está instalada.',
  showInstallation: 'Ver la instalación',

  topUpIntro: 'Añade datos a esta eSIM:',
  topUpChoose: 'Añadir',
  topUpChooseLabel: 'Añadir {plan}, {price}',
  topUpNone: 'Ahora no hay recargas para esta eSIM.',
  topUpNotSupported: 'Esta eSIM no se puede recargar. Para seguir conectado, compra una eSIM nueva.',
  topUpNotEnabled: '{brand} no ofrece recargas para esta eSIM.',
  topUpCompatibilityUnverified:
    'Aún no podemos confirmar que una recarga funcione con esta eSIM, así que no la ofrecemos. Vuelve a comprobarlo más tarde.',
  topUpTemporarilyUnavailable:
    'Las recargas no están disponibles temporalmente. Vuelve a comprobarlo en unos minutos.',
  topUpProfileIneligible:
    'Esta eSIM no admite una recarga en su estado actual (por ejemplo, caducada o sin instalar).',
  checkAgain: 'Comprobar de nuevo',
  toppedUp: 'La recarga ya está en tu eSIM. Las cifras pueden tardar unos minutos en actualizarse.',
};
