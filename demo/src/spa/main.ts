/**
 * @module
 * The npm-embed demo: a small single-page trip planner that imports `@esim-embed/widget`, defines the element
 * once, and mounts `<esim-widget>` only on its "Mobile data" route. A route change removes the element (the
 * widget unmounts and aborts its requests) and coming back mounts a fresh one.
 */
import { defineEsimWidget } from '@esim-embed/widget';
import '../brand/base.css';
import './spa.css';
import { routeOf, SPA_ROUTES } from './routes';

/** The widget id the trip planner embeds (Globetrotter, direct checkout). */
const WIDGET_ID = 'demo-globetrotter';

defineEsimWidget();

const view = document.getElementById('view');
if (!view) throw new Error('The SPA page has no #view.');

function show(): void {
  const path = routeOf(location.hash);
  const route = SPA_ROUTES[path];
  document.title = `${route.title} — Globetrotter`;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.app__nav a')) {
    if (link.dataset.route === path) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const page = route.render();
  if (path === '/esim') {
    const widget = document.createElement('esim-widget');
    widget.setAttribute('widget-id', WIDGET_ID);
    widget.setAttribute('api-base', location.origin);
    page.append(widget);
  }
  // Replacing the children disconnects the previous route's widget, exactly as a framework router would.
  view?.replaceChildren(page);
}

window.addEventListener('hashchange', () => {
  show();
  view.focus();
});
show();
