/**
 * @module
 * The product's design tokens as plain values: the light and dark palettes, the brand colour, the type, the
 * radius and the spacing step. The widget's theme (`--esim-*`, set on its `:host`) and the partner console's
 * (set on its page's root) are both made of them, so the two look like one product.
 */

/** The colours that change between the light and the dark theme. */
export interface Palette {
  readonly surface: string;
  readonly surfaceRaised: string;
  readonly text: string;
  readonly textMuted: string;
  readonly border: string;
  readonly danger: string;
  readonly success: string;
}

/** The light palette. */
export const LIGHT_PALETTE: Palette = {
  surface: '#ffffff',
  surfaceRaised: '#f6f7f9',
  text: '#16181d',
  textMuted: '#555b66',
  border: '#c9ced6',
  danger: '#b3261e',
  success: '#1b6e3a',
};

/** The dark palette. */
export const DARK_PALETTE: Palette = {
  surface: '#15171c',
  surfaceRaised: '#20232a',
  text: '#f2f3f5',
  textMuted: '#b4bac4',
  border: '#4a505c',
  danger: '#ff8a80',
  success: '#7fd69b',
};

/** The tokens both themes share: the default brand colour, the type, the radius and the spacing step. */
export const BASE_TOKENS = {
  brand: '#0b57d0',
  onBrand: '#ffffff',
  // The system's UI font: a page without a font of its own would otherwise give the browser's default serif.
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontSize: '1rem',
  radius: '10px',
  space: '8px',
} as const;
