/**
 * @module
 * The console's controls, shared by every page: buttons, fields, notices, cards and the small print.
 */
import { VISUALLY_HIDDEN } from '@esim-embed/shared';
import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

const controlBase = {
  font: 'inherit',
  minHeight: '44px',
  borderRadius: vars.radius,
  padding: `0 calc(${vars.space} * 1.5)`,
} as const;

// A link drawn as a button (the CSV download) lines up with the buttons beside it.
const buttonBase = {
  ...controlBase,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  textDecoration: 'none',
} as const;

/** A button in its colours: every button's shape, its pointer and its dimmed look while disabled. */
const buttonIn = (border: string, background: string, color: string) =>
  style({
    ...buttonBase,
    border: `1px solid ${border}`,
    background,
    color,
    cursor: 'pointer',
    ':disabled': { opacity: 0.6, cursor: 'default' },
  });

/** The main action of a form or a page. */
export const primaryButton = buttonIn(vars.color.brand, vars.color.brand, vars.color.onBrand);

/** Any other action. */
export const button = buttonIn(vars.color.border, vars.color.surfaceRaised, vars.color.text);

/** A text field or a select. */
export const input = style({
  ...controlBase,
  width: '100%',
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
});

/** A label above its field. */
export const field = style({
  display: 'flex',
  flexDirection: 'column',
  gap: `calc(${vars.space} / 2)`,
  minWidth: 0,
});

/** A form's fields, one under the other. */
export const form = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space,
  maxWidth: '28rem',
});

/** A row of actions or filters that wraps on a narrow screen. */
export const row = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space,
  alignItems: 'flex-end',
});

/** A boxed part of a page. */
export const card = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius,
  background: vars.color.surfaceRaised,
  padding: `calc(${vars.space} * 2)`,
  marginBlock: `calc(${vars.space} * 2)`,
});

/** The box a wide table scrolls in (`table-scroll.tsx`). */
// Positioned, so that a visually hidden header inside scrolls with the table rather than widen the page.
export const tableScroll = style({ overflowX: 'auto', maxWidth: '100%', position: 'relative' });

/** An error said to the user. */
export const errorNotice = style({
  border: `1px solid ${vars.color.danger}`,
  borderRadius: vars.radius,
  padding: vars.space,
  color: vars.color.danger,
});

/** A success said to the user. */
export const successNotice = style({
  border: `1px solid ${vars.color.success}`,
  borderRadius: vars.radius,
  padding: vars.space,
  color: vars.color.success,
});

/** Secondary text: ids and facts, which break anywhere rather than widen a 360 px screen. */
export const muted = style({ color: vars.color.textMuted, fontSize: '0.9em', overflowWrap: 'anywhere' });

/** A status shown as a small tag. */
export const tag = style({
  display: 'inline-block',
  border: `1px solid ${vars.color.border}`,
  borderRadius: '999px',
  padding: '0 0.6em',
  fontSize: '0.85em',
  whiteSpace: 'nowrap',
});

/** Text only screen readers read. */
export const visuallyHidden = style(VISUALLY_HIDDEN);

/** An id, a token or a URI: breaks anywhere rather than widening the page. */
export const code = style({ fontFamily: 'ui-monospace, monospace', overflowWrap: 'anywhere' });
