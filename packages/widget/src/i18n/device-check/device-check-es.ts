/**
 * @module
 * Spanish messages of the device check (whether this device can take an eSIM).
 */
import type { DeviceCheckMessages } from '../messages';

export const deviceCheckEs: DeviceCheckMessages = {
  capable: 'Tu {phone} admite eSIM.',
  incapable:
    'Tu {phone} no admite eSIM, según nuestros datos. Puedes comprarla igualmente para otro teléfono.',
  iphone: 'Los iPhone XS, XR y posteriores admiten eSIM (salvo los vendidos en China continental).',
  checkPhone: '¿No sabes si tu teléfono admite eSIM? Marca *#06#: si muestra un EID, la admite.',
  checkOnPhone:
    'La eSIM se instala en tu teléfono. Para comprobarlo, marca *#06# en él: si muestra un EID, admite eSIM.',
  locked: 'Un teléfono bloqueado por un operador no puede usar la eSIM de otro.',
};
