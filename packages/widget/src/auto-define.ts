/**
 * @module
 * `@esim-embed/widget/define`: importing this module defines `<esim-widget>` (a side effect by design).
 */
import { defineEsimWidget } from './define';

defineEsimWidget();

export { defineEsimWidget };
