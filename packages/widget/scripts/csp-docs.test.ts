// @vitest-environment node
/**
 * The Content-Security-Policy the documents show is the one `src/csp/partner-csp.ts` writes: every rendered
 * copy (the widget's README, docs/deployment.md) is up to date (`pnpm --filter @esim-embed/widget csp-docs`).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCsp, partnerCsp } from '../src/csp/partner-csp';
import { CSP_DOCUMENTS, DOCS_EXAMPLE, renderCspBlocks } from './render-csp-docs';

describe.each(CSP_DOCUMENTS.map((path) => [basename(path), path]))('%s', (_name, path) => {
  const text = readFileSync(path, 'utf8');

  it('shows the partner’s policy between the markers', () => {
    expect(text).toContain(
      `<!-- partner-csp:start -->\n\`\`\`text\n${formatCsp(partnerCsp(DOCS_EXAMPLE), { lines: true })}\n`,
    );
  });

  it('has every rendered policy up to date', () => {
    expect(text).toBe(renderCspBlocks(text));
  });
});

it('replaces a stale copy and leaves unknown markers alone', () => {
  const stale = [
    'before',
    '<!-- partner-csp:start -->',
    '```text',
    "script-src 'self';",
    '```',
    '<!-- partner-csp:end -->',
    '<!-- other:start -->',
    'kept',
    '<!-- other:end -->',
  ].join('\n');
  const rendered = renderCspBlocks(stale);
  expect(rendered).toContain(`script-src ${DOCS_EXAMPLE.bffOrigin};\nconnect-src`);
  expect(rendered).not.toContain("'self'");
  expect(rendered).toContain('<!-- other:start -->\nkept\n<!-- other:end -->');
});
