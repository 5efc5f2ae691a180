/**
 * @module
 * The trip planner's three routes and their (static) content. Only `/esim` holds the widget.
 */

export type SpaPath = '/' | '/esim' | '/checklist';

interface SpaRoute {
  title: string;
  render: () => HTMLElement;
}

function section(heading: string, ...paragraphs: string[]): HTMLElement {
  const root = document.createElement('section');
  root.className = 'page';
  const title = document.createElement('h1');
  title.textContent = heading;
  root.append(title);
  for (const text of paragraphs) {
    const paragraph = document.createElement('p');
    paragraph.textContent = text;
    root.append(paragraph);
  }
  return root;
}

function tripCard(): HTMLElement {
  const root = section('Lisbon & Porto, 12–19 May', 'Flight TP 1353 · 2 travellers · Hotel Avenida, Lisbon');
  const list = document.createElement('ul');
  list.className = 'trip';
  for (const [label, done] of [
    ['Flights booked', true],
    ['Hotel booked', true],
    ['Mobile data for Portugal', false],
  ] as const) {
    const item = document.createElement('li');
    item.dataset.done = String(done);
    item.textContent = label;
    list.append(item);
  }
  const cta = document.createElement('a');
  cta.href = '#/esim';
  cta.className = 'button';
  cta.textContent = 'Get mobile data';
  root.append(list, cta);
  return root;
}

/** The routes by path. */
export const SPA_ROUTES: Record<SpaPath, SpaRoute> = {
  '/': { title: 'My trip', render: tripCard },
  '/esim': {
    title: 'Mobile data',
    render: () => section('Mobile data abroad', 'Pick your destination and install the eSIM before you fly.'),
  },
  '/checklist': {
    title: 'Checklist',
    render: () =>
      section(
        'Before you go',
        'Passport valid for six months · Travel insurance · Adapter plug · eSIM installed before departure.',
      ),
  },
};

/** The route a location hash points at (`#/esim` → `/esim`); unknown hashes go home. */
export function routeOf(hash: string): SpaPath {
  const path = hash.replace(/^#/, '') || '/';
  return path in SPA_ROUTES ? (path as SpaPath) : '/';
}
