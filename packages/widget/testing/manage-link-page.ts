/**
 * @module
 * Test steps for the after-sale views: put a manage token in the page's address (as a manage link does) and
 * open the eSIM's own view in a widget against a fake BFF.
 */
import type { EsimView } from '@esim-embed/shared';
import { esimView, type FakeBff } from './fake-bff';
import { type MountedWidget, mountWidget } from './mount-widget';

/** A manage token the fake BFF knows once `openMyEsim` registered it. */
export const MANAGE_TOKEN = 'mt_0123456789abcdef';

/** Sets the page's address (path and fragment) without a navigation. */
export function setPageAddress(address: string): void {
  history.replaceState(null, '', address);
}

/** Opens a page with `#esim=acme.<token>` for an eSIM with this view, and waits for the view. */
export async function openMyEsim(bff: FakeBff, overrides: Partial<EsimView> = {}): Promise<MountedWidget> {
  bff.addEsim(MANAGE_TOKEN, esimView(overrides));
  setPageAddress(`/trips?ref=1#esim=acme.${MANAGE_TOKEN}`);
  const widget = await mountWidget(bff);
  await widget.view.findByRole('heading', { name: 'My eSIM' });
  await widget.view.findByRole('heading', { name: 'Dates' });
  return widget;
}
