// @vitest-environment node
/**
 * Importing the npm entry on a server (no `window`, no `HTMLElement`, no `customElements`) must not throw,
 * and `defineEsimWidget()` does nothing there.
 */
import { expect, it, vi } from 'vitest';

it('imports and "defines" in Node without touching window', async () => {
  expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
  const widget = await import('../index');
  expect(typeof widget.EsimWidgetElement).toBe('function');
  expect(() => widget.defineEsimWidget()).not.toThrow();
  const event = new widget.EsimErrorEvent({ code: 'internal', requestId: null });
  expect(event).toMatchObject({ type: 'esim-error', bubbles: true, composed: true });
});

it('imports where even CustomEvent is missing', async () => {
  const saved = globalThis.CustomEvent;
  Reflect.deleteProperty(globalThis, 'CustomEvent');
  try {
    vi.resetModules();
    const widget = await import('../index');
    expect(typeof widget.EsimCheckoutEvent).toBe('function');
  } finally {
    globalThis.CustomEvent = saved;
  }
});
