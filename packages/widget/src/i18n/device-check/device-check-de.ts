/**
 * @module
 * German messages of the device check (whether this device can take an eSIM).
 */
import type { DeviceCheckMessages } from '../messages';

export const deviceCheckDe: DeviceCheckMessages = {
  capable: 'Ihr {phone} unterstützt eSIM.',
  incapable:
    'Ihr {phone} unterstützt nach unserem Wissen keine eSIM. Sie können sie trotzdem für ein anderes Telefon kaufen.',
  iphone: 'iPhone XS, XR und neuer unterstützen eSIM (außer in Festlandchina verkaufte Modelle).',
  checkPhone: 'Unterstützt Ihr Telefon eSIM? Wählen Sie *#06#: Zeigt es eine EID an, unterstützt es eSIM.',
  checkOnPhone:
    'Die eSIM kommt auf Ihr Telefon. Wählen Sie dort *#06#: Zeigt es eine EID an, unterstützt es eSIM.',
  locked: 'Ein Telefon mit SIM-Lock kann keine eSIM eines anderen Anbieters nutzen.',
};
