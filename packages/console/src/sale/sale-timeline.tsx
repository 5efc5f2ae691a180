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
        {timeline.map((entry, index) => (
          <li key={index}>
            <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time> — {t(`kind_${entry.kind}`)}
            {Object.keys(entry.detail).length > 0 && (
              <span class={controls.muted}>
                {' '}
                (
                {Object.entries(entry.detail)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join(', ')}
                )
              </span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
