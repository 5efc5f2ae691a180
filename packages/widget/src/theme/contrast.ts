/**
 * @module
 * WCAG 2.x contrast for brand colours: whatever `#RRGGBB` a partner picks, text on it and the colour used
 * as text on the widget's surface keep at least AA contrast (4.5:1).
 */

/** The AA minimum for normal text. */
export const AA_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance of an `#RRGGBB` colour (WCAG 2.2 definition). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two `#RRGGBB` colours, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Text colour for a background: black or white, whichever contrasts more. One of the two always reaches
 * at least 4.58:1 (pure black and white are needed for that: a near-black fails on some blues), so any
 * brand colour gets AA text.
 */
export function readableTextOn(background: string): string {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}

/**
 * The brand colour adjusted to read as text (links, prices) on a surface: mixed towards black or white,
 * the least needed, until it reaches `minimum` contrast.
 */
export function brandTextOn(brand: string, surface: string, minimum = AA_CONTRAST): string {
  if (contrastRatio(brand, surface) >= minimum) return brand.toLowerCase();
  const towards = relativeLuminance(surface) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  const from = channels(brand);
  for (let step = 1; step <= 20; step++) {
    const mix = step / 20;
    const candidate = toHex(from.map((channel, index) => channel + ((towards[index] ?? 0) - channel) * mix));
    if (contrastRatio(candidate, surface) >= minimum) return candidate;
  }
  return toHex(towards);
}
