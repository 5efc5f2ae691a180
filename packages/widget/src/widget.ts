/**
 * @module
 * The script-tag entry (`widget.js`): defines `<esim-widget>`. It holds only the element class; the app
 * loads from the chunks beside it when the first element connects.
 */
import { defineEsimWidget } from './define';

defineEsimWidget();

export { defineEsimWidget };
