/**
 * @module
 * Lists, cards and rows of the catalog and checkout steps; single column on a phone, a grid on wider widgets.
 */
import { globalStyle, style } from '@vanilla-extract/css';
import { theme } from '../theme/theme.css';

/** A section heading inside a step. */
export const sectionHeading = style({ fontSize: '1em', margin: `calc(${theme.space} * 2) 0 ${theme.space}` });

/** A grid of destinations: one column at 320 px, more when there is room. */
export const destinationGrid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 180px), 1fr))',
  gap: theme.space,
  listStyle: 'none',
  margin: 0,
  padding: 0,
});

/**
 * Off-screen destinations skip style, layout and paint until scrolled near: about 270 buttons render at
 * once, and laying them all out would be a long task on a slow phone.
 */
globalStyle(`${destinationGrid} > li`, {
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 64px',
});

/** One destination button. */
export const destinationButton = style({
  font: 'inherit',
  width: '100%',
  minHeight: '44px',
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  columnGap: theme.space,
  alignItems: 'center',
  textAlign: 'start',
  padding: theme.space,
  border: `1px solid ${theme.color.border}`,
  borderRadius: theme.radius,
  background: theme.color.surfaceRaised,
  color: theme.color.text,
  cursor: 'pointer',
  selectors: { '&:hover': { borderColor: theme.color.brand } },
});

/**
 * A flag emoji, in the colour emoji font of Linux, ChromeOS and Android by name: left to the text's font,
 * every flag's letters sent the browser through its font fallback there (a fontconfig search), which made
 * the list's first layout a long task. Elsewhere the system's own fallback finds its emoji font.
 */
export const flag = style({
  fontFamily: '"Noto Color Emoji"',
  fontSize: '1.5em',
  lineHeight: 1,
  gridRow: 'span 2',
});

/** The muted second line of a destination or plan. */
export const secondary = style({ color: theme.color.textMuted, fontSize: '0.9em' });

/** The list of plans. */
export const planList = style({
  display: 'grid',
  gap: `calc(${theme.space} * 1.5)`,
  listStyle: 'none',
  margin: 0,
  padding: 0,
});

/** The small feature tags of a plan. */
export const tags = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: `calc(${theme.space} / 2)`,
  listStyle: 'none',
  padding: 0,
  margin: `${theme.space} 0`,
});

/** One feature tag. */
export const tag = style({
  border: `1px solid ${theme.color.border}`,
  borderRadius: '999px',
  padding: `0 ${theme.space}`,
  fontSize: '0.85em',
});

/** The sort control row. */
export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: theme.space,
  alignItems: 'center',
  marginBottom: theme.space,
});

/** A select box. */
export const select = style({
  font: 'inherit',
  minHeight: '44px',
  padding: `0 ${theme.space}`,
  borderRadius: theme.radius,
  border: `1px solid ${theme.color.border}`,
  background: theme.color.surfaceRaised,
  color: theme.color.text,
});

/** A form field's block. */
export const field = style({ margin: `calc(${theme.space} * 2) 0` });

/** A checkbox with its label. */
export const checkboxRow = style({ display: 'flex', gap: theme.space, alignItems: 'flex-start' });

/** The checkbox itself, large enough to hit. */
export const checkbox = style({
  width: '24px',
  height: '24px',
  flex: 'none',
  margin: '2px 0 0',
  accentColor: theme.color.brand,
});

/** The progress list. */
export const progressList = style({
  listStyle: 'none',
  padding: 0,
  margin: `${theme.space} 0`,
  display: 'grid',
  gap: theme.space,
});

/** A progress item: done, current or to come. */
export const progressItem = style({
  display: 'flex',
  gap: theme.space,
  alignItems: 'center',
  color: theme.color.textMuted,
  selectors: {
    '&[data-state="done"]': { color: theme.color.success },
    '&[data-state="current"]': { color: theme.color.text, fontWeight: 600 },
  },
});
