/**
 * @module
 * A plan's one-line summary: what it gives on the left, its price on the right, wrapping on a narrow widget.
 */
import { style } from '@vanilla-extract/css';
import { theme } from '../theme/theme.css';

/** The summary's row: data and price. */
export const planTop = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  alignItems: 'baseline',
  gap: theme.space,
});

/** A plan's data amount and validity. */
export const planData = style({ fontSize: '1.25em', fontWeight: 700 });

/** A price. */
export const price = style({ fontSize: '1.25em', fontWeight: 700, color: theme.color.text });
