/**
 * @module
 * The widget's frame: the brand header, the step area, the footer with support and legal links.
 */
import { style } from '@vanilla-extract/css';
import { theme } from '../theme/theme.css';

/** The outer box. */
export const container = style({
  fontFamily: theme.font.family,
  fontSize: theme.font.size,
  lineHeight: 1.5,
  color: theme.color.text,
  background: theme.color.surface,
  border: `1px solid ${theme.color.border}`,
  borderRadius: theme.radius,
  maxWidth: theme.maxWidth,
  minWidth: 0,
  margin: '0 auto',
  // A word breaks only when it cannot fit on a line of its own (a long address); otherwise lines wrap between words.
  overflowWrap: 'break-word',
});

/** The brand bar: the name wraps between words, and the badge goes under it when both do not fit. */
export const header = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: theme.space,
  padding: `calc(${theme.space} * 1.5) calc(${theme.space} * 2)`,
  borderBottom: `4px solid ${theme.color.brand}`,
  fontWeight: 700,
});

/** The partner's name when there is no logo: as wide as its words need, wrapping between them. */
export const brandName = style({ flex: '1 1 auto', minWidth: 'min-content' });

/** The partner's logo. */
export const logo = style({ maxHeight: '32px', maxWidth: '160px', objectFit: 'contain' });

/** The test-mode badge: short, on one line. */
export const badge = style({
  marginInlineStart: 'auto',
  whiteSpace: 'nowrap',
  fontSize: '0.8em',
  fontWeight: 600,
  padding: `2px ${theme.space}`,
  borderRadius: theme.radius,
  background: theme.color.brand,
  color: theme.color.onBrand,
});

/** The step area. */
export const content = style({ padding: `calc(${theme.space} * 2)`, minHeight: '200px' });

/** The support and legal links. */
export const footer = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: `calc(${theme.space} * 2)`,
  padding: `${theme.space} calc(${theme.space} * 2)`,
  borderTop: `1px solid ${theme.color.border}`,
  fontSize: '0.9em',
  color: theme.color.textMuted,
});
