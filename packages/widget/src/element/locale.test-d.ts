/**
 * Type test: the public events spell out the widget's languages for partners (no import of our private
 * packages in the published types); they must be exactly the contract's `Locale`. Checked by `tsc`.
 */
import type { Locale } from '@esim-embed/shared';
import { expectTypeOf } from 'vitest';
import type { EsimReadyDetail } from '../events';
import type { EsimWidgetAttributes } from './jsx-attributes.gen';

expectTypeOf<EsimReadyDetail['locale']>().toEqualTypeOf<Locale>();
expectTypeOf<NonNullable<EsimWidgetAttributes['locale']>>().toEqualTypeOf<Locale>();
