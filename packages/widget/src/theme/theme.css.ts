/**
 * @module
 * The widget's public theme: CSS custom properties with stable `--esim-*` names (a vanilla-extract global
 * theme contract), their defaults on `:host` for the light and dark themes, and the brand colours that the
 * session's brand overrides at run time (see `brand-sheet.ts`).
 */
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

const light = {
  surface: '#ffffff',
  surfaceRaised: '#f6f7f9',
  text: '#16181d',
  textMuted: '#555b66',
  border: '#c9ced6',
  danger: '#b3261e',
  success: '#1b6e3a',
};

const dark = {
  surface: '#15171c',
  surfaceRaised: '#20232a',
  text: '#f2f3f5',
  textMuted: '#b4bac4',
  border: '#4a505c',
  danger: '#ff8a80',
  success: '#7fd69b',
};

const darkVars = {
  [theme.color.surface]: dark.surface,
  [theme.color.surfaceRaised]: dark.surfaceRaised,
  [theme.color.text]: dark.text,
  [theme.color.textMuted]: dark.textMuted,
  [theme.color.border]: dark.border,
  [theme.color.danger]: dark.danger,
  [theme.color.success]: dark.success,
  [theme.color.brandText]: `var(--esim-brand-text-dark, ${theme.color.brand})`,
};

// Defaults on :host, so that the page's own `esim-widget { --esim-… }` rules win over them.
globalStyle(':host', {
  vars: {
    [theme.color.brand]: '#0b57d0',
    [theme.color.onBrand]: '#ffffff',
    [theme.color.brandText]: 'var(--esim-brand-text-light, #0b57d0)',
    [theme.color.surface]: light.surface,
    [theme.color.surfaceRaised]: light.surfaceRaised,
    [theme.color.text]: light.text,
    [theme.color.textMuted]: light.textMuted,
    [theme.color.border]: light.border,
    [theme.color.danger]: light.danger,
    [theme.color.success]: light.success,
    // The system's UI font: a page without a font of its own would otherwise give the browser's default serif.
    [theme.font.family]: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    [theme.font.size]: '1rem',
    [theme.radius]: '10px',
    [theme.space]: '8px',
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
