/**
 * @module
 * Destination search as the traveller types: by the localized name, the other names the BFF sends
 * (English, native, the ISO code), ignoring case and accents; popular destinations and regions for the
 * empty search.
 */
import type { Destination } from '@esim-embed/shared';

function sharedPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length++;
  return length;
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/**
 * Destinations matching `query`, best matches first (code, then name prefix, then any word prefix, then a
 * part of a name, then a near miss), popular ones first among equals.
 */
export function searchDestinations(destinations: readonly Destination[], query: string): Destination[] {
  const wanted = fold(query);
  if (!wanted) return [];
  const scored: { destination: Destination; score: number }[] = [];
  for (const destination of destinations) {
    const names = [destination.name, ...destination.searchTerms].map(fold);
    let score = 0;
    if (fold(destination.code) === wanted) score = 4;
    else if (names.some((name) => name.startsWith(wanted))) score = 3;
    else if (names.some((name) => name.split(/[\s-]+/).some((word) => word.startsWith(wanted)))) score = 2;
    else if (wanted.length > 2 && names.some((name) => name.includes(wanted))) score = 1;
    // A near miss ("turkey" for "türkiye", "germny"): most of the word typed right from its start.
    else if (wanted.length >= 5 && names.some((name) => sharedPrefix(name, wanted) >= wanted.length - 2))
      score = 0.5;
    if (score) scored.push({ destination, score });
  }
  // Equally good matches: popular destinations first (most travellers typing "Tur" mean Turkey).
  const rank = (destination: Destination) => destination.popularity ?? Number.POSITIVE_INFINITY;
  return scored
    .sort(
      (a, b) =>
        b.score - a.score ||
        rank(a.destination) - rank(b.destination) ||
        a.destination.name.localeCompare(b.destination.name),
    )
    .map((entry) => entry.destination);
}

/** The popular destinations, most popular first. */
export function popularDestinations(destinations: readonly Destination[], limit = 8): Destination[] {
  return destinations
    .filter((destination) => destination.popularity !== null)
    .sort((a, b) => (a.popularity ?? 0) - (b.popularity ?? 0))
    .slice(0, limit);
}

/**
 * Destinations of one kind, in the traveller's alphabetical order: the order the BFF sends them in (sorted in
 * the locale's collation), so the first screen needs no `Intl.Collator` of its own (its first use in a page
 * is a long task on a slow phone).
 */
export function destinationsOfKind(
  destinations: readonly Destination[],
  kind: Destination['kind'],
): Destination[] {
  return destinations.filter((d) => d.kind === kind);
}
