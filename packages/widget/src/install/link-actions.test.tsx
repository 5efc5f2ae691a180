/**
 * The manage link on the install screen, as a traveller on a phone meets it: actions, not a block of text. It
 * is copied or shared (where the browser has the Web Share API) with one press, and its address shows only on
 * request.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { setPageAddress } from '../../testing/manage-link-page';
import type { MountedWidget } from '../../testing/mount-widget';
import { runOnTestClock } from '../../testing/test-clock';
import { buyAndInstall, cleanUpPage } from '../../testing/traveller';

runOnTestClock();
afterEach(() => {
  cleanUpPage();
  setPageAddress('/');
});

/** The manage link as the host page heard it (`esim-manage-link`). */
async function manageLinkOf(widget: MountedWidget): Promise<string> {
  await waitFor(() => expect(widget.events.some((event) => event.type === 'esim-manage-link')).toBe(true));
  const event = widget.events.find((entry) => entry.type === 'esim-manage-link');
  return String((event?.detail as { url?: string } | undefined)?.url);
}

describe('the manage link’s actions', () => {
  it('keeps the address out of sight until asked, then shows it whole', async () => {
    const widget = await buyAndInstall(new FakeBff());
    const show = await widget.view.findByRole('button', { name: 'Show link' });
    const url = await manageLinkOf(widget);
    expect(widget.view.queryByText(url)).toBeNull();
    expect(show.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(show);
    expect(widget.view.getByText(url)).toBeTruthy();
    expect(show.getAttribute('aria-expanded')).toBe('true');
  });

  it('copies the link and says so', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const widget = await buyAndInstall(new FakeBff());
    fireEvent.click(await widget.view.findByRole('button', { name: 'Copy link' }));
    await widget.view.findByText('Link to your eSIM copied');
    expect(writeText).toHaveBeenCalledWith(await manageLinkOf(widget));
  });

  it('offers the phone’s share sheet only where the browser has one', async () => {
    const widget = await buyAndInstall(new FakeBff());
    await widget.view.findByRole('button', { name: 'Copy link' });
    expect(widget.view.queryByRole('button', { name: 'Share link' })).toBeNull();
    cleanUpPage();

    const share = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, share, canShare: () => true });
    const sharing = await buyAndInstall(new FakeBff());
    fireEvent.click(await sharing.view.findByRole('button', { name: 'Share link' }));
    const url = await manageLinkOf(sharing);
    await waitFor(() => expect(share).toHaveBeenCalledWith({ title: expect.any(String), url }));
  });
});
