/**
 * @module
 * The embed panel's behaviour: accessible tabs (arrow keys, roving tabindex) and copy buttons.
 */

/** Makes a `role=tablist` switch its panels, by click and by arrow keys. */
export function wireTabs(tablist: HTMLElement | null): void {
  if (!tablist) return;
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role=tab]')];
  const select = (chosen: HTMLButtonElement) => {
    for (const tab of tabs) {
      const selected = tab === chosen;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !selected;
    }
  };
  for (const [index, tab] of tabs.entries()) {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const next = tabs[(index + step + tabs.length) % tabs.length];
      if (next) {
        select(next);
        next.focus();
      }
    });
  }
}

/** Copies the text of `#<data-copy>` when a `.copy` button is pressed, and says so in `status`. */
export function wireCopyButtons(root: ParentNode, status: HTMLElement): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button.copy[data-copy]')) {
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.dataset.copy ?? '');
      if (!source) return;
      try {
        await navigator.clipboard.writeText(source.textContent ?? '');
        button.dataset.copied = '';
        button.textContent = 'Copied';
        status.textContent = 'Copied to the clipboard.';
        setTimeout(() => {
          delete button.dataset.copied;
          button.textContent = 'Copy';
        }, 1600);
      } catch {
        // Clipboard access needs a secure context and permission; selecting the text is the honest fallback.
        const range = document.createRange();
        range.selectNodeContents(source);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
        status.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
      }
    });
  }
}
