/** The widget's extracted CSS as a string (see scripts/adopted-styles-plugin.ts). */
declare module 'virtual:esim-widget-styles' {
  const css: string;
  export default css;
}

/** The package version, replaced at build time (vite.config.ts, vitest.config.ts). */
declare const __ESIM_WIDGET_VERSION__: string;
