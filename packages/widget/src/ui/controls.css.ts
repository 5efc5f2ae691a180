/**
 * @module
 * The widget's controls: buttons, inputs, cards, notices, the focus ring and the reduced-motion rule.
 * Everything is scoped to the shadow root the stylesheet is adopted into.
 */
import { VISUALLY_HIDDEN } from '@esim-embed/shared';
import { globalStyle, keyframes, style } from '@vanilla-extract/css';
import { theme } from '../theme/theme.css';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });

// The brand colour adjusted for contrast with the surface, so that the ring is visible in both themes.
globalStyle(':focus-visible', { outline: `3px solid ${theme.color.brandText}`, outlineOffset: '2px' });

globalStyle('*', {
  '@media': {
    '(prefers-reduced-motion: reduce)': {
      animationDuration: '0.01ms !important',
      animationIterationCount: '1 !important',
      transitionDuration: '0.01ms !important',
    },
  },
});

const buttonBase = {
  font: 'inherit',
  minHeight: '44px',
  padding: `calc(${theme.space} * 1.25) calc(${theme.space} * 2)`,
  borderRadius: theme.radius,
  cursor: 'pointer',
  lineHeight: 1.2,
  maxWidth: '100%',
} as const;

/** A secondary button. */
export const button = style({
  ...buttonBase,
  border: `1px solid ${theme.color.border}`,
  background: theme.color.surfaceRaised,
  color: theme.color.text,
  selectors: { '&:disabled': { cursor: 'not-allowed', opacity: 0.6 } },
});

/** The main action of a step. */
export const primaryButton = style({
  ...buttonBase,
  border: `2px solid ${theme.color.brand}`,
  background: theme.color.brand,
  color: theme.color.onBrand,
  fontWeight: 600,
  selectors: { '&:disabled': { cursor: 'progress', opacity: 0.75 } },
});

/** A button that looks like a link (back navigation). */
export const linkButton = style({
  font: 'inherit',
  border: 0,
  background: 'none',
  color: theme.color.brandText,
  textDecoration: 'underline',
  cursor: 'pointer',
  padding: `${theme.space} 0`,
  minHeight: '44px',
});

/** Text links (brand colour adjusted for contrast). */
export const link = style({ color: theme.color.brandText });

/** A text or email input. */
export const input = style({
  font: 'inherit',
  width: '100%',
  minHeight: '44px',
  padding: `${theme.space} calc(${theme.space} * 1.5)`,
  border: `1px solid ${theme.color.border}`,
  borderRadius: theme.radius,
  background: theme.color.surfaceRaised,
  color: theme.color.text,
  selectors: { '&[aria-invalid="true"]': { borderColor: theme.color.danger, borderWidth: '2px' } },
});

/** A field label. */
export const label = style({ display: 'block', fontWeight: 600, marginBottom: `calc(${theme.space} / 2)` });

/** Secondary text under a field or in a card. */
export const hint = style({
  color: theme.color.textMuted,
  fontSize: '0.9em',
  margin: `calc(${theme.space} / 2) 0 0`,
});

/** A field's error text. */
export const fieldError = style({
  color: theme.color.danger,
  fontSize: '0.9em',
  margin: `calc(${theme.space} / 2) 0 0`,
});

/** A bordered card. */
export const card = style({
  border: `1px solid ${theme.color.border}`,
  borderRadius: theme.radius,
  background: theme.color.surfaceRaised,
  padding: `calc(${theme.space} * 1.5)`,
});

/** An error or warning with its actions. */
export const notice = style({
  border: `2px solid ${theme.color.danger}`,
  borderRadius: theme.radius,
  padding: `calc(${theme.space} * 1.5)`,
  margin: `${theme.space} 0`,
});

/** An informational notice (price changed). */
export const infoNotice = style({
  border: `2px solid ${theme.color.brandText}`,
  borderRadius: theme.radius,
  padding: `calc(${theme.space} * 1.5)`,
  margin: `${theme.space} 0`,
});

/** A row of buttons that wraps on narrow screens. */
export const actions = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: theme.space,
  marginTop: theme.space,
  alignItems: 'center',
});

/** Text for screen readers only. */
export const visuallyHidden = style(VISUALLY_HIDDEN);

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

/** A small busy indicator (stops under reduced motion). */
export const spinner = style({
  display: 'inline-block',
  width: '1em',
  height: '1em',
  border: `2px solid ${theme.color.border}`,
  borderTopColor: theme.color.brand,
  borderRadius: '50%',
  animation: `${spin} 0.8s linear infinite`,
  verticalAlign: 'middle',
  marginInlineEnd: theme.space,
});
