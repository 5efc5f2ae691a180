/**
 * A widget the BFF cannot sell through as configured (the upstream key lacks a scope, is of the other
 * environment or of another brand): the start is refused with `widget_misconfigured`, and the traveller
 * reads that the store is not set up yet and nothing was charged — with no pointless retry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { cleanUpPage } from '../../testing/traveller';

afterEach(cleanUpPage);

describe('a misconfigured store', () => {
  it('explains it on the first screen, without a retry button', async () => {
    const bff = new FakeBff();
    bff.failNext('GET', /^\/v1\/widgets\/acme\/start$/, 'widget_misconfigured', 503);
    const { view, events } = await mountWidget(bff);
    expect(
      await view.findByText(/This store is not set up to sell eSIMs yet\. Nothing was charged\./),
    ).toBeTruthy();
    expect(view.queryByRole('button')).toBeNull();
    expect(events.find((event) => event.type === 'esim-error')?.detail).toMatchObject({
      code: 'widget_misconfigured',
    });
  });
});
