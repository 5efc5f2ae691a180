/**
 * @module
 * The design tokens as a theme's custom properties, for the widget's theme and the console's alike: the names both
 * give the tokens (each adds a prefix and a few of its own), and the tokens' values under a theme contract's
 * properties — plain objects that a vanilla-extract `vars` block takes, evaluated when the styles are built.
 */
import { BASE_TOKENS, type Palette } from './design-tokens';

/**
 * The custom properties' names of the tokens, before a theme's prefix (`--console-…`), as the widget's public
 * `--esim-…` names them too (the widget lists its own in full: they are its public API, documented in its manifest).
 */
export const TOKEN_VAR_NAMES = {
  color: {
    brand: 'color-brand',
    onBrand: 'color-on-brand',
    surface: 'color-surface',
    surfaceRaised: 'color-surface-raised',
    text: 'color-text',
    textMuted: 'color-text-muted',
    border: 'color-border',
    danger: 'color-danger',
    success: 'color-success',
  },
  font: { family: 'font-family', size: 'font-size' },
  radius: 'radius',
  space: 'space',
} as const;

/** A theme contract's references to the tokens' properties (what `createGlobalThemeContract` answers). */
export interface TokenVars {
  readonly color: { readonly [Name in keyof typeof TOKEN_VAR_NAMES.color]: string };
  readonly font: { readonly family: string; readonly size: string };
  readonly radius: string;
  readonly space: string;
}

/** A palette's colours under a theme's properties: the part that changes between light and dark. */
export const paletteVars = (vars: TokenVars, palette: Palette): Record<string, string> => ({
  [vars.color.surface]: palette.surface,
  [vars.color.surfaceRaised]: palette.surfaceRaised,
  [vars.color.text]: palette.text,
  [vars.color.textMuted]: palette.textMuted,
  [vars.color.border]: palette.border,
  [vars.color.danger]: palette.danger,
  [vars.color.success]: palette.success,
});

/** The brand's default colours under a theme's properties. */
export const brandVars = (vars: TokenVars): Record<string, string> => ({
  [vars.color.brand]: BASE_TOKENS.brand,
  [vars.color.onBrand]: BASE_TOKENS.onBrand,
});

/** The type, radius and spacing step under a theme's properties. */
export const shapeVars = (vars: TokenVars): Record<string, string> => ({
  [vars.font.family]: BASE_TOKENS.fontFamily,
  [vars.font.size]: BASE_TOKENS.fontSize,
  [vars.radius]: BASE_TOKENS.radius,
  [vars.space]: BASE_TOKENS.space,
});
