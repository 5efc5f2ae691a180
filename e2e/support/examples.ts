/**
 * @module
 * The example apps of `examples/` the browser suite builds and buys in: the framework apps take their widget and
 * BFF from the query (`?widget=…&api=…`), the plain-HTML page is built with them (`VITE_ESIM_*`).
 */
import { TEST_WIDGETS } from './test-config';

/** The examples whose app reads the widget id and the BFF's origin from its query. */
export const FRAMEWORK_EXAMPLES = ['react18', 'react19', 'vue3'] as const;

/** The widget the plain-HTML example is built with (a `direct` one: the purchase completes in the browser). */
export const HTML_EXAMPLE_WIDGET = TEST_WIDGETS.direct;
