/**
 * @module
 * The style of a step's heading (`step-heading.tsx`).
 */
import { style } from '@vanilla-extract/css';
import { theme } from '../theme/theme.css';

/** A step's heading. */
export const heading = style({ fontSize: '1.3em', lineHeight: 1.3, margin: `0 0 calc(${theme.space} * 2)` });
