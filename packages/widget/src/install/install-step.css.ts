/**
 * @module
 * The install step: the QR code centred on white (scannable in dark mode too), the copy fields, the
 * per-platform steps.
 */
import { style } from '@vanilla-extract/css';
import { theme } from '../theme/theme.css';

/** The QR code's frame. */
export const qrFrame = style({
  display: 'flex',
  justifyContent: 'center',
  padding: theme.space,
  background: '#ffffff',
  borderRadius: theme.radius,
  width: 'fit-content',
  maxWidth: '100%',
  margin: `${theme.space} auto`,
});

/** The QR image: never wider than the widget. */
export const qrImage = style({ display: 'block', maxWidth: '100%', height: 'auto' });

/** A value with its copy button. */
export const copyRow = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: theme.space,
  alignItems: 'center',
  margin: `calc(${theme.space} / 2) 0 calc(${theme.space} * 1.5)`,
});

/** The copied value, in a monospace font, breakable anywhere. */
export const code = style({
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  padding: `calc(${theme.space} / 2) ${theme.space}`,
  border: `1px solid ${theme.color.border}`,
  borderRadius: theme.radius,
  background: theme.color.surfaceRaised,
  overflowWrap: 'anywhere',
  wordBreak: 'break-all',
  minWidth: 0,
  flex: '1 1 12em',
});

/** An install link styled as a button. */
export const installLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: '44px',
  padding: `calc(${theme.space} * 1.25) calc(${theme.space} * 2)`,
  borderRadius: theme.radius,
  textDecoration: 'none',
  fontWeight: 600,
  border: `2px solid ${theme.color.brand}`,
});

/** The first (the traveller's platform) install link. */
export const installLinkPrimary = style([
  installLink,
  { background: theme.color.brand, color: theme.color.onBrand },
]);

/** The other platform's install link. */
export const installLinkSecondary = style([installLink, { color: theme.color.brandText }]);

/** Sections of the install step. */
export const installSection = style({ marginTop: `calc(${theme.space} * 3)` });

/** A link shown on request, under its actions. */
export const shownLink = style([code, { display: 'block', marginTop: theme.space }]);
