/** The contrast picker keeps WCAG AA for any brand colour. */
import { describe, expect, it } from 'vitest';
import { AA_CONTRAST, brandTextOn, contrastRatio, readableTextOn, relativeLuminance } from './contrast';

/** Every 17th step of each channel: 4,096 colours across the whole cube, corners included. */
function colourGrid(): string[] {
  const steps = Array.from({ length: 16 }, (_, index) => index * 17);
  const hex = (value: number) => value.toString(16).padStart(2, '0');
  return steps.flatMap((r) => steps.flatMap((g) => steps.map((b) => `#${hex(r)}${hex(g)}${hex(b)}`)));
}

describe('contrast', () => {
  it('computes the WCAG luminance and ratio', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('picks dark text on light brands and white text on dark brands', () => {
    expect(readableTextOn('#ffcc00')).toBe('#000000');
    expect(readableTextOn('#0b57d0')).toBe('#ffffff');
    expect(readableTextOn('#e30613')).toBe('#ffffff');
  });

  it('gives AA text on every brand colour', () => {
    for (const colour of colourGrid()) {
      expect(contrastRatio(colour, readableTextOn(colour)), colour).toBeGreaterThanOrEqual(AA_CONTRAST);
    }
  });

  it('adjusts the brand colour to read as text on light and dark surfaces', () => {
    expect(brandTextOn('#0b57d0', '#ffffff')).toBe('#0b57d0');
    for (const colour of colourGrid()) {
      expect(contrastRatio(brandTextOn(colour, '#ffffff'), '#ffffff'), colour).toBeGreaterThanOrEqual(
        AA_CONTRAST,
      );
      expect(contrastRatio(brandTextOn(colour, '#15171c'), '#15171c'), colour).toBeGreaterThanOrEqual(
        AA_CONTRAST,
      );
    }
  });
});
