/** The widget's extracted CSS as a string (see scripts/adopted-styles-plugin.ts). */
declare module 'virtual:esim-widget-styles' {
  const css: string;
  export default css;
}
