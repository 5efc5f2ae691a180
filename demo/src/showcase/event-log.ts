/**
 * @module
 * The "events your page receives" panel: every event the widget fires, with its detail, newest first.
 */

/** The widget's public events, in the order a sale fires them. */
export const WIDGET_EVENTS = [
  'esim-ready',
  'esim-quote',
  'esim-checkout',
  'esim-purchase',
  'esim-error',
] as const;

const MAX_ENTRIES = 30;

/** Listens on `host` for the widget's events and lists them in `list`. Returns a function that stops it. */
export function showWidgetEvents(host: EventTarget, list: HTMLOListElement): () => void {
  const onEvent = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    list.querySelector('.event-log__empty')?.remove();
    const item = document.createElement('li');
    const name = document.createElement('span');
    name.className = 'event-log__name';
    name.dataset.event = event.type;
    name.textContent = event.type;
    const time = document.createElement('time');
    time.className = 'event-log__time';
    time.textContent = new Date().toLocaleTimeString([], {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    const body = document.createElement('code');
    body.className = 'event-log__detail';
    body.textContent = JSON.stringify(detail);
    item.append(name, time, body);
    list.prepend(item);
    while (list.children.length > MAX_ENTRIES) list.lastElementChild?.remove();
  };
  for (const type of WIDGET_EVENTS) host.addEventListener(type, onEvent);
  return () => {
    for (const type of WIDGET_EVENTS) host.removeEventListener(type, onEvent);
  };
}
