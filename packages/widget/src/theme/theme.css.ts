/**
 * @module
 * The widget's public theme: CSS custom properties with stable `--esim-*` names (a vanilla-extract global
 * theme contract), their defaults on `:host` for the light and dark themes (the product's design tokens, in
 * `shared`, which the partner console's theme is made of too), and the brand colours that the
 * session's brand overrides at run time (see `brand-sheet.ts`).
 */
import { BASE_TOKENS, DARK_PALETTE, LIGHT_PALETTE } from '@esim-embed/shared';
import { createGlobalThemeContract, globalStyle } from '@vanilla-extract/css';

/** The `--esim-*` custom properties a host page may set on `esim-widget`. */
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
  [theme.color.surface]: DARK_PALETTE.surface,
  [theme.color.surfaceRaised]: DARK_PALETTE.surfaceRaised,
  [theme.color.text]: DARK_PALETTE.text,
  [theme.color.textMuted]: DARK_PALETTE.textMuted,
  [theme.color.border]: DARK_PALETTE.border,
  [theme.color.danger]: DARK_PALETTE.danger,
  [theme.color.success]: DARK_PALETTE.success,
  [theme.color.brandText]: `var(--esim-brand-text-dark, ${theme.color.brand})`,
};

// Defaults on :host, so that the page's own `esim-widget { --esim-… }` rules win over them.
globalStyle(':host', {
  vars: {
    [theme.color.brand]: BASE_TOKENS.brand,
    [theme.color.onBrand]: BASE_TOKENS.onBrand,
    [theme.color.brandText]: `var(--esim-brand-text-light, ${BASE_TOKENS.brand})`,
    [theme.color.surface]: LIGHT_PALETTE.surface,
    [theme.color.surfaceRaised]: LIGHT_PALETTE.surfaceRaised,
    [theme.color.text]: LIGHT_PALETTE.text,
    [theme.color.textMuted]: LIGHT_PALETTE.textMuted,
    [theme.color.border]: LIGHT_PALETTE.border,
    [theme.color.danger]: LIGHT_PALETTE.danger,
    [theme.color.success]: LIGHT_PALETTE.success,
    [theme.font.family]: BASE_TOKENS.fontFamily,
    [theme.font.size]: BASE_TOKENS.fontSize,
    [theme.radius]: BASE_TOKENS.radius,
    [theme.space]: BASE_TOKENS.space,
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
