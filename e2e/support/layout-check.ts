/**
 * @module
 * Does the widget's text fit, measured in the browser from element geometry and text ranges (no pixel
 * comparison): the page does not scroll sideways, no box hides content it cannot fit, no text leaves the
 * widget, and no word is broken inside (its range spans two lines). Values meant to be copied (`<code>`) may
 * break anywhere and are left out.
 */
import type { Page } from '@playwright/test';

/**
 * What does not fit in the widget of `selector` as the page is laid out now (in `theme`, set on the widget first
 * when given); empty when all fits.
 */
export function layoutProblems(
  page: Page,
  options: { selector?: string; theme?: string } = {},
): Promise<string[]> {
  const { selector = 'esim-widget', theme = null } = options;
  return page.evaluate(
    async ([hostSelector, hostTheme]) => {
      const problems: string[] = [];
      const host = document.querySelector(hostSelector);
      const root = host?.shadowRoot;
      if (!host || !root) return [`no ${hostSelector} with a shadow root`];
      if (hostTheme !== null) host.setAttribute('theme', hostTheme);
      // Measure after the layout of the last resize or theme change.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const name = (element: Element) =>
        `<${element.localName}${element.getAttribute('part') ? ` part="${element.getAttribute('part')}"` : ''}> "${(element.textContent ?? '').trim().slice(0, 40)}"`;

      const sideways = document.documentElement.scrollWidth - window.innerWidth;
      if (sideways > 0) problems.push(`the page scrolls sideways by ${sideways}px`);
      const widget = host.getBoundingClientRect();

      // A box that clips (overflow other than visible) must hold its content; a 1×1 visually hidden box is meant to.
      for (const element of root.querySelectorAll('*')) {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        if (style.display === 'none' || box.width <= 1 || box.height <= 1) continue;
        const clipsX = style.overflowX !== 'visible';
        const clipsY = style.overflowY !== 'visible';
        const wider = element.scrollWidth - element.clientWidth;
        const taller = element.scrollHeight - element.clientHeight;
        if ((clipsX && wider > 1) || (clipsY && taller > 1))
          problems.push(`${name(element)} clips its content (${wider}px wide, ${taller}px tall too much)`);
        if (box.left < widget.left - 1 || box.right > widget.right + 1)
          problems.push(`${name(element)} reaches outside the widget`);
      }

      // Every word of every visible text, as the reader sees it: on one line and inside the widget.
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('code, style, script')) continue;
        const parentBox = parent.getBoundingClientRect();
        if (parentBox.width <= 1 || parentBox.height <= 1) continue;
        const text = node.textContent ?? '';
        // Spaces break lines; a no-break space does not. After a hyphen, slash or dash a break is allowed too.
        for (const match of text.matchAll(/[^ \t\n\r\u200b]+/g)) {
          let start = match.index;
          for (const piece of match[0].split(/(?<=[-/–—])/)) {
            range.setStart(node, start);
            range.setEnd(node, start + piece.length);
            start += piece.length;
            const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
            if (rects.length === 0) continue;
            const tops = rects.map((rect) => rect.top);
            const lineHeight = Math.min(...rects.map((rect) => rect.height));
            if (Math.max(...tops) - Math.min(...tops) > lineHeight / 2)
              problems.push(`the word "${piece}" is broken across lines in ${name(parent)}`);
            if (rects.some((rect) => rect.left < widget.left - 1 || rect.right > widget.right + 1))
              problems.push(`the word "${piece}" leaves the widget in ${name(parent)}`);
          }
        }
      }
      return [...new Set(problems)];
    },
    [selector, theme] as const,
  );
}
