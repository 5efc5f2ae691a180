/**
 * @module
 * The Custom Elements Manifest (`custom-elements.json`) of the package, generated from the element's JSDoc
 * (`@tag`, `@attr`, `@event`, `@csspart`, `@cssproperty`) by `cem analyze`.
 */
export default {
  globs: ['src/element/esim-widget.element.ts', 'src/events.ts', 'src/device-check-event.ts'],
  outdir: '.',
  dev: false,
  packagejson: false,
};
