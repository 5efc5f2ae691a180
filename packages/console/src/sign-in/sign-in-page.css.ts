/** @module The sign-in page's layout: one narrow column in the middle. */
import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

export const page = style({
  maxWidth: '28rem',
  margin: '0 auto',
  padding: `calc(${vars.space} * 3) calc(${vars.space} * 2)`,
});
