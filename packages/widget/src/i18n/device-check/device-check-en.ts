/**
 * @module
 * English messages of the device check (whether this device can take an eSIM): the reference table. Loaded
 * with the device check, after the plan is chosen, so the first screen does not carry them.
 */

export const deviceCheckEn = {
  /** `{phone}`: the phone's name (`Pixel 8`, `Galaxy S23`). */
  capable: 'Your {phone} can take an eSIM.',
  incapable:
    'Your {phone} cannot take an eSIM, as far as we know. You can still buy one to install on another phone.',
  iphone: 'iPhone XS, XR and later can take an eSIM (not models sold in mainland China).',
  checkPhone: 'Not sure your phone can take an eSIM? Dial *#06#: if it shows an EID, it can.',
  checkOnPhone:
    'The eSIM goes on your phone. To check that it can take one, dial *#06# on it: if it shows an EID, it can.',
  locked: 'A phone locked to a carrier cannot use another operator’s eSIM.',
};
