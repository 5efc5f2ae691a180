/** @module The bar chart's colours: the theme's, so it follows light and dark. */
import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

export const chart = style({ width: '100%', maxWidth: '40rem', height: 'auto', display: 'block' });
export const bar = style({ fill: vars.color.brand });
export const label = style({ fill: vars.color.text, fontSize: '12px' });
export const value = style({ fill: vars.color.text, fontSize: '12px' });
