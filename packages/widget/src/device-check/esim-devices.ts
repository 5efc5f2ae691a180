/**
 * @module
 * Which Android phones can take an eSIM, by the model name Chromium reports in its User-Agent Client Hints
 * (`navigator.userAgentData.getHighEntropyValues(['model'])`, the phone's `Build.MODEL`: `Pixel 8`,
 * `SM-S918B`). Two short lists, each entry a pattern over that name and, where the name is a maker's code,
 * the name travellers know it by. A model on neither list is unknown: the traveller gets the "how to check"
 * advice, never a warning.
 *
 * Source: compiled by hand from the makers' published eSIM support (Google's Pixel help on eSIM, Samsung's
 * list of Galaxy devices that support eSIM) and their model codes; taken 2026-11-26. Review it when the makers
 * release new phones; an entry belongs here only when every region's model under that name is the same
 * (Samsung's mainland-China models, whose codes end in a digit — `SM-S9180` — have no eSIM and match no
 * capable pattern). Known limits of the name alone: a Pixel 3 or 3a sold in Japan or Taiwan, and a Galaxy
 * S20 sold in some regions, have the same name without the eSIM; a phone locked to a carrier takes only that
 * carrier's eSIMs (the widget says so beside a capable verdict).
 */

/** One entry of a list: a model name pattern and, where the name is a code, the phone's own name. */
export interface DeviceModel {
  pattern: RegExp;
  /** What to call the phone; absent: the reported model name itself (`Pixel 8 Pro`). */
  name?: string;
}

/** Samsung's codes: `SM-` and a series letter, three digits, then a region letter (`B`, `U`, `W`, `N`…). */
const galaxy = (codes: string, name: string): DeviceModel => ({
  pattern: new RegExp(`^SM-(?:${codes})[A-Z]`),
  name,
});

/** Phones that take an eSIM (outside the exceptions in the module's header). */
export const ESIM_CAPABLE: readonly DeviceModel[] = [
  // Google Pixel 3 and later (3, 3a, 4 … 10, their XL, Pro and a models), the Pixel Fold and the Pro Folds.
  { pattern: /^Pixel (?:[3-9]|[1-9]\d)(?!\d)/ },
  { pattern: /^Pixel(?: \d+ Pro)? Fold$/ },
  // Samsung Galaxy S20 and later (S20: G98x, S21: G99x, S22: S90x, S23: S91x, S24: S92x, S25: S93x).
  galaxy('G98[01568]', 'Galaxy S20'),
  galaxy('G99[0168]', 'Galaxy S21'),
  galaxy('S90[168]', 'Galaxy S22'),
  galaxy('S91[168]', 'Galaxy S23'),
  galaxy('S711', 'Galaxy S23 FE'),
  galaxy('S92[168]', 'Galaxy S24'),
  galaxy('S721', 'Galaxy S24 FE'),
  galaxy('S93[1678]', 'Galaxy S25'),
  // Galaxy Note20, Z Fold (Fold2 on) and Z Flip (the first Flip on).
  galaxy('N98[0156]', 'Galaxy Note20'),
  galaxy('F916', 'Galaxy Z Fold2'),
  galaxy('F926', 'Galaxy Z Fold3'),
  galaxy('F936', 'Galaxy Z Fold4'),
  galaxy('F946', 'Galaxy Z Fold5'),
  galaxy('F956', 'Galaxy Z Fold6'),
  galaxy('F966', 'Galaxy Z Fold7'),
  galaxy('F70[07]', 'Galaxy Z Flip'),
  galaxy('F711', 'Galaxy Z Flip3'),
  galaxy('F721', 'Galaxy Z Flip4'),
  galaxy('F731', 'Galaxy Z Flip5'),
  galaxy('F741', 'Galaxy Z Flip6'),
  galaxy('F76[16]', 'Galaxy Z Flip7'),
];

/** Phones that cannot take an eSIM from another operator. */
export const ESIM_INCAPABLE: readonly DeviceModel[] = [
  // The first Pixels; the Pixel 2 takes only Google Fi's eSIM; the Pixel Tablet has no mobile radio.
  { pattern: /^Pixel(?: XL| 2(?: XL)?)?$/ },
  { pattern: /^Pixel Tablet$/ },
  // Galaxy S and Note before the S20.
  galaxy('G93[05]', 'Galaxy S7'),
  galaxy('G95[05]', 'Galaxy S8'),
  galaxy('G96[05]', 'Galaxy S9'),
  galaxy('G97[0357]', 'Galaxy S10'),
  galaxy('N950', 'Galaxy Note8'),
  galaxy('N960', 'Galaxy Note9'),
  galaxy('N97[056]', 'Galaxy Note10'),
  // The common Galaxy A models without an eSIM.
  galaxy('A105', 'Galaxy A10'),
  galaxy('A205', 'Galaxy A20'),
  galaxy('A305', 'Galaxy A30'),
  galaxy('A505', 'Galaxy A50'),
  galaxy('A12[57]', 'Galaxy A12'),
  galaxy('A217', 'Galaxy A21s'),
  galaxy('A315', 'Galaxy A31'),
  galaxy('A51[56]', 'Galaxy A51'),
  galaxy('A71[56]', 'Galaxy A71'),
  galaxy('A13[567]', 'Galaxy A13'),
  galaxy('A22[56]', 'Galaxy A22'),
  galaxy('A23[56]', 'Galaxy A23'),
  galaxy('A32[56]', 'Galaxy A32'),
  galaxy('A336', 'Galaxy A33'),
  galaxy('A52[568]', 'Galaxy A52'),
  galaxy('A536', 'Galaxy A53'),
  galaxy('A05[57]', 'Galaxy A05'),
  galaxy('A14[56]', 'Galaxy A14'),
];
