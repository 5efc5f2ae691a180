/**
 * @module
 * Russian messages of the device check (whether this device can take an eSIM).
 */
import type { DeviceCheckMessages } from '../messages';

export const deviceCheckRu: DeviceCheckMessages = {
  capable: 'Ваш телефон {phone} поддерживает eSIM.',
  incapable:
    'Ваш телефон {phone}, насколько мы знаем, не поддерживает eSIM. Купить её можно и для другого телефона.',
  iphone: 'iPhone XS, XR и новее поддерживают eSIM (кроме моделей для материкового Китая).',
  checkPhone: 'Не уверены, что телефон поддерживает eSIM? Наберите *#06#: если показан EID, поддерживает.',
  checkOnPhone:
    'eSIM устанавливается на телефон. Чтобы проверить его, наберите на нём *#06#: если показан EID, телефон поддерживает eSIM.',
  locked: 'Телефон, привязанный к оператору, не примет eSIM другого оператора.',
};
