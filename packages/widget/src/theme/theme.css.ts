/**
 * @module
 * The widget's public theme: CSS custom properties with stable `--esim-*` names (a vanilla-extract global
 * theme contract), their defaults on `:host` for the light and dark themes (the product's design tokens, in
 * `shared`, which the partner console's theme is made of too), and the brand colours that the
 * session's brand overrides at run time (see `brand-sheet.ts`).
 */
import {
  BASE_TOKENS,
  brandVars,
  DARK_PALETTE,
  LIGHT_PALETTE,
  paletteVars,
  shapeVars,
} from '@esim-embed/shared';
import { createGlobalThemeContract, globalStyle } from '@vanilla-extract/css';

/**
 * The `--esim-*` custom properties a host page may set on `esim-widget`: named here, in full, because they are
 * the widget's public API (its manifest documents each, and a test holds the two together).
 */
export const theme = createGlobalThemeContract(
  {
    color: {
      brand: 'color-brand',
      onBrand: 'color-on-brand',
      brandText: 'color-brand-text',
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
    maxWidth: 'max-width',
  },
  (name) => `esim-${name}`,
);

const darkVars = {
  ...paletteVars(theme, DARK_PALETTE),
  [theme.color.brandText]: `var(--esim-brand-text-dark, ${theme.color.brand})`,
};

// Defaults on :host, so that the page's own `esim-widget { --esim-… }` rules win over them.
globalStyle(':host', {
  vars: {
    ...brandVars(theme),
    [theme.color.brandText]: `var(--esim-brand-text-light, ${BASE_TOKENS.brand})`,
    ...paletteVars(theme, LIGHT_PALETTE),
    ...shapeVars(theme),
    [theme.maxWidth]: '640px',
  },
  display: 'block',
  colorScheme: 'light',
});

globalStyle(':host([hidden])', { display: 'none' });

globalStyle(':host([theme="dark"])', { vars: darkVars, colorScheme: 'dark' });

globalStyle(':host([theme="auto"])', {
  '@media': { '(prefers-color-scheme: dark)': { vars: darkVars, colorScheme: 'dark' } },
});
