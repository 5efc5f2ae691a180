/** @module The QR code on a light square, whatever the theme, so a camera reads it. */
import { style } from '@vanilla-extract/css';

export const code = style({ background: '#ffffff', fill: '#000000', display: 'block' });
