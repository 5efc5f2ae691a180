/**
 * @module
 * The eSIM's own view: the data meter and the list of dates.
 */
import { style } from '@vanilla-extract/css';
import { theme } from '../theme/theme.css';

/** The data meter: the full width of the widget. */
export const meter = style({ display: 'block', width: '100%', height: '1em', margin: `${theme.space} 0` });

/** Dates: term and value side by side, each column at least as wide as its longest word. */
export const dates = style({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  gap: `calc(${theme.space} / 2) calc(${theme.space} * 2)`,
  margin: 0,
});

/** A date's value. */
export const dateValue = style({ margin: 0, fontWeight: 600 });
