/**
 * The suite records every event the widget fires: the recorder's list, read from the widget's manifest, is
 * checked against the event classes in the widget's source (each `static readonly eventName`), and the script
 * itself is run against a stand-in document to see which events it listens to.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventRecorderScript } from './event-recorder';

/** The widget's sources, found from its package (reached by name) rather than by a path into it. */
const WIDGET_SOURCES = join(
  dirname(createRequire(import.meta.url).resolve('@esim-embed/widget/package.json')),
  'src',
);

/** Every `eventName` an event class of the widget declares, wherever in its sources the class lives. */
function eventNamesInSource(): string[] {
  return readdirSync(WIDGET_SOURCES, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.includes('.test'))
    .flatMap((file) => [
      ...readFileSync(join(WIDGET_SOURCES, file), 'utf8').matchAll(/static readonly eventName = '([^']+)'/g),
    ])
    .map((match) => match[1] as string);
}

/** The event types `script` listens to on `document`. */
function listenedTo(script: string): string[] {
  const types: string[] = [];
  const document = { addEventListener: (type: string) => types.push(type) };
  new Function('window', 'document', script)({}, document);
  return types;
}

describe('the e2e event recorder', () => {
  it('listens to every event the widget declares', () => {
    const declared = eventNamesInSource();
    expect(declared).toEqual(expect.arrayContaining(['esim-manage-link', 'esim-help', 'esim-device-check']));
    expect(listenedTo(eventRecorderScript()).sort()).toEqual([...new Set(declared)].sort());
  });
});
