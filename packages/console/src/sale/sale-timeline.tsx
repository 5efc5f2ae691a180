/** @module A sale's life, oldest first: each step with its time and the few facts the BFF gives for it. */
import type { SaleTimelineEntry } from '@esim-embed/shared/console';
import { useConsole } from '../app/console-context';
import * as controls from '../ui/controls.css';
import { formatDateTime } from '../ui/formatters';

/** The timeline section. */
export function SaleTimeline({ timeline }: { timeline: SaleTimelineEntry[] }) {
  const { locale, t } = useConsole();
  return (
    <section class={controls.card} aria-labelledby="sale-timeline">
      <h2 id="sale-timeline">{t('timeline')}</h2>
      <ol>
        {timeline.map((entry, index) => {
          // A fact the step does not have (`null`) is left out rather than written.
          const facts = Object.entries(entry.detail).filter(([, value]) => value !== null);
          return (
            <li key={index}>
              <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time> — {t(`kind_${entry.kind}`)}
              {facts.length > 0 && (
                <span class={controls.muted}>
                  {' '}
                  ({facts.map(([name, value]) => `${name}: ${value}`).join(', ')})
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
