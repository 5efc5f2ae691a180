/**
 * @module
 * The partner quickstart as its documentation shows it: the SDK's README carries the 30-line server in full, and
 * the tests run that text (the example's own file, and a copy saved from the installed tarball's README), so the
 * documented server cannot drift from the one that runs.
 */

/** The heading of the README's section whose `ts` block is the quickstart server. */
const QUICKSTART_HEADING = '## A whole partner server in 30 lines';

/** The quickstart server's source, as the SDK's README (`readme`, its text) shows it. */
export function quickstartServerOf(readme: string): string {
  const section = readme.split(QUICKSTART_HEADING)[1]?.split(/\n## /)[0];
  const source = section?.match(/\n```ts\n([\s\S]*?)```\n/)?.[1];
  if (source === undefined) throw new Error(`the README has no \`ts\` block under "${QUICKSTART_HEADING}"`);
  return source;
}
