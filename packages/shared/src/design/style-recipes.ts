/**
 * @module
 * Style recipes the widget and the console both use, as plain style objects that a vanilla-extract `style()`
 * takes when the styles are built (nothing of them reaches a browser but the CSS they make).
 */

/** Text that only screen readers read: out of sight, still in the accessibility tree. */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
