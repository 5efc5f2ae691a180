/**
 * @module
 * Step 1: where is the traveller going? A search field that filters as they type (in their language or
 * by ISO code), popular destinations first, then regions and countries, each with its flag and from-price.
 */
import type { Destination } from '@esim-embed/shared';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useWidget } from '../flow/widget-context';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { StepHeading } from '../ui/step-heading';
import { destinationsOfKind, popularDestinations, searchDestinations } from './destination-search';
import { useRemoteData } from './remote-data';
import * as css from './steps.css';

/** Props of `DestinationsStep`. */
export interface DestinationsStepProps {
  /** Called once the list is shown (to fetch what comes next); may return its cleanup. */
  onShown?: () => (() => void) | undefined;
}

/** The destination search. */
export function DestinationsStep({ onShown }: DestinationsStepProps = {}) {
  const { client, locale, t } = useWidget();
  const [data, reload] = useRemoteData(() => client.destinations(locale), locale);
  const shownList = data.state === 'loaded';
  useEffect(() => (shownList ? onShown?.() : undefined), [shownList, onShown]);
  const [query, setQuery] = useState('');
  const all = data.state === 'loaded' ? data.value : [];
  const results = useMemo(() => searchDestinations(all, query), [all, query]);
  const searching = query.trim() !== '';
  const popular = useMemo(() => popularDestinations(all), [all]);
  const regions = useMemo(() => destinationsOfKind(all, 'region'), [all]);
  const countries = useMemo(() => destinationsOfKind(all, 'country'), [all]);
  // The popular destinations, then regions, then countries, come in slices (see useProgressiveCount): the
  // step's frame is drawn first, the list one frame later.
  const shown = useProgressiveCount(popular.length + regions.length + countries.length);

  return (
    <section>
      <StepHeading>{t('destinationsHeading')}</StepHeading>
      <label class={controls.label} for="esim-destination-search">
        {t('searchLabel')}
      </label>
      <input
        id="esim-destination-search"
        class={controls.input}
        part="input"
        type="search"
        autocomplete="off"
        spellcheck={false}
        aria-describedby="esim-destination-hint"
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
      />
      <p id="esim-destination-hint" class={controls.hint}>
        {t('searchHint')}
      </p>
      {data.state === 'loading' && (
        <p aria-busy="true">
          <span class={controls.spinner} aria-hidden="true" />
          {t('loading')}
        </p>
      )}
      {data.state === 'failed' && (
        <ErrorNotice error={data.error} failures={data.failures} actions={{ retry: reload }} />
      )}
      <p class={controls.visuallyHidden} aria-live="polite">
        {searching && data.state === 'loaded' ? t('resultCount', { n: results.length }) : ''}
      </p>
      {data.state === 'loaded' &&
        (all.length === 0 ? (
          <p>{t('noDestinations')}</p>
        ) : searching ? (
          results.length === 0 ? (
            <p>{t('noResults', { query: query.trim() })}</p>
          ) : (
            <DestinationGroup title={t('searchResults')} destinations={results} />
          )
        ) : (
          <>
            <DestinationGroup title={t('popular')} destinations={popular.slice(0, shown)} />
            <DestinationGroup
              title={t('regions')}
              destinations={regions.slice(0, Math.max(0, shown - popular.length))}
            />
            <DestinationGroup
              title={t('countries')}
              destinations={countries.slice(0, Math.max(0, shown - popular.length - regions.length))}
            />
          </>
        ))}
    </section>
  );
}

/**
 * How many of `total` items to render: none at first, then small slices, each in a task after the frame
 * that drew the one before (an effect runs after the next paint), so that no task of the widget blocks the
 * partner's page for long: the step's frame, its text's first font, is laid out without the list, and the
 * grid is laid out again with each slice, so a larger slice makes a longer task.
 */
function useProgressiveCount(total: number, slice = 8): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => setShown((count) => Math.min(total, count + slice)), 0);
    return () => clearTimeout(timer);
  }, [shown, total, slice]);
  return Math.min(shown, total);
}

function DestinationGroup({ title, destinations }: { title: string; destinations: Destination[] }) {
  const { t, go } = useWidget();
  if (destinations.length === 0) return null;
  return (
    <>
      <h3 class={css.sectionHeading}>{title}</h3>
      <ul class={css.destinationGrid}>
        {destinations.map((destination) => (
          <li key={destination.code}>
            <button
              type="button"
              class={css.destinationButton}
              part="button destination"
              onClick={() =>
                go({
                  name: 'plans',
                  destination: { code: destination.code, name: destination.name, flag: destination.flag },
                })
              }
            >
              <span class={css.flag} aria-hidden="true">
                {destination.flag}
              </span>
              <span>{destination.name}</span>
              <span class={css.secondary}>
                {t('fromPrice', { price: destination.fromPriceLabel })}
                {' · '}
                {t('planCount', { n: destination.planCount })}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
