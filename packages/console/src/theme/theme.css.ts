/**
 * @module
 * The console's theme: the product's design tokens (`shared`'s palettes, the widget's too) as `--console-*`
 * custom properties on the page's root, light by default, dark when the system prefers it or the staff member
 * chose it (`data-theme` on `<html>`, set by `preferences.ts`), and the page's base styles.
 */
import {
  BASE_TOKENS,
  brandVars,
  DARK_PALETTE,
  LIGHT_PALETTE,
  paletteVars,
  shapeVars,
  TOKEN_VAR_NAMES,
} from '@esim-embed/shared';
import { createGlobalThemeContract, globalStyle } from '@vanilla-extract/css';

/** The console's custom properties: the product's tokens (as the widget names them) and a link colour. */
export const vars = createGlobalThemeContract(
  { ...TOKEN_VAR_NAMES, color: { ...TOKEN_VAR_NAMES.color, link: 'color-link' } },
  (name) => `console-${name}`,
);

// On the dark surface the brand blue is too dark to read as text: links take the text colour (underlined).
const darkVars = { ...paletteVars(vars, DARK_PALETTE), [vars.color.link]: DARK_PALETTE.text };

globalStyle(':root', {
  vars: {
    ...paletteVars(vars, LIGHT_PALETTE),
    [vars.color.link]: BASE_TOKENS.brand,
    ...brandVars(vars),
    ...shapeVars(vars),
  },
  colorScheme: 'light',
});

// `data-theme="light"` is the staff member's choice against the system's.
globalStyle(':root:not([data-theme="light"])', {
  '@media': { '(prefers-color-scheme: dark)': { vars: darkVars, colorScheme: 'dark' } },
});

globalStyle(':root[data-theme="dark"]', { vars: darkVars, colorScheme: 'dark' });

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });

globalStyle('body', {
  margin: 0,
  background: vars.color.surface,
  color: vars.color.text,
  fontFamily: vars.font.family,
  fontSize: vars.font.size,
  lineHeight: 1.45,
});

// A heading may carry an id (`Sale chk_…`), which has no spaces: it breaks rather than widen a 360 px screen.
globalStyle('h1, h2', { overflowWrap: 'anywhere' });

// A page's title takes less of a phone's screen.
globalStyle('h1', { fontSize: 'clamp(1.4rem, 6vw, 2rem)' });

globalStyle('a', { color: vars.color.link });

globalStyle(':focus-visible', { outline: `3px solid ${vars.color.brand}`, outlineOffset: '2px' });

globalStyle('dt', { fontWeight: 600 });

globalStyle('dd', { margin: `0 0 ${vars.space} 0` });

globalStyle('h2:first-child', { marginTop: 0 });

globalStyle('table', { borderCollapse: 'collapse', width: '100%' });

globalStyle('th, td', {
  textAlign: 'start',
  padding: `calc(${vars.space} * 0.75) ${vars.space}`,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: 'top',
});
