/**
 * @module
 * French messages of the device check (whether this device can take an eSIM).
 */
import type { DeviceCheckMessages } from '../messages';

export const deviceCheckFr: DeviceCheckMessages = {
  capable: 'Votre {phone} est compatible eSIM.',
  incapable:
    'Votre {phone} n’est pas compatible eSIM, à notre connaissance. Vous pouvez tout de même l’acheter pour un autre téléphone.',
  iphone: 'Les iPhone XS, XR et plus récents sont compatibles eSIM (sauf ceux vendus en Chine continentale).',
  checkPhone: 'Votre téléphone est-il compatible eSIM ? Composez *#06# : s’il affiche un EID, il l’est.',
  checkOnPhone:
    'L’eSIM s’installe sur votre téléphone. Pour le vérifier, composez-y *#06# : s’il affiche un EID, il est compatible eSIM.',
  locked: 'Un téléphone bloqué par un opérateur ne peut pas utiliser l’eSIM d’un autre.',
};
