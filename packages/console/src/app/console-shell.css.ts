/** @module The console's frame: the header (name, switches, user), the sections' navigation and the page. */
import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

export const header = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space,
  padding: `${vars.space} calc(${vars.space} * 2)`,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
});

export const appName = style({ fontWeight: 700, fontSize: '1.1rem', margin: 0 });

export const preferences = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space });

export const preference = style({
  display: 'flex',
  alignItems: 'center',
  gap: `calc(${vars.space} / 2)`,
  whiteSpace: 'nowrap',
});

export const user = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space });

export const nav = style({
  borderBottom: `1px solid ${vars.color.border}`,
  padding: `0 calc(${vars.space} * 2)`,
});

export const navList = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: `0 calc(${vars.space} * 2)`,
  listStyle: 'none',
  margin: 0,
  padding: 0,
});

export const navLink = style({
  display: 'inline-block',
  padding: `calc(${vars.space} * 1.25) 0`,
  textDecoration: 'none',
  color: vars.color.text,
  borderBottom: '3px solid transparent',
});

globalStyle(`${navLink}[aria-current="page"]`, { borderBottomColor: vars.color.brand, fontWeight: 700 });

export const main = style({
  padding: `calc(${vars.space} * 2)`,
  maxWidth: '72rem',
  margin: '0 auto',
});

export const skipLink = style({
  position: 'absolute',
  insetInlineStart: vars.space,
  top: '-10rem',
  background: vars.color.surface,
  padding: vars.space,
  selectors: { '&:focus': { top: vars.space } },
});
