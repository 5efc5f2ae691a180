/**
 * @module
 * Renders the partner's Content-Security-Policy (`src/csp/partner-csp.ts`) into the documents that show it,
 * between marker comments (`<!-- partner-csp:start -->` … `<!-- partner-csp:end -->`, and `strict-partner-csp`
 * for the strict form), for one example BFF and logo host. `csp-docs.test.ts` fails when a rendered copy
 * differs. Run: `pnpm --filter @esim-embed/widget csp-docs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatCsp, type PartnerCspOptions, partnerCsp, strictPartnerCsp } from '../src/csp/partner-csp';

/** The example the documents use. */
export const DOCS_EXAMPLE: PartnerCspOptions = {
  bffOrigin: 'https://bff.example.com',
  logoOrigins: ['https://cdn.acme-travel.example'],
};

/** The documents with rendered policies: the widget's embed guide and the deployment guide. */
export const CSP_DOCUMENTS = [
  fileURLToPath(new URL('../README.md', import.meta.url)),
  fileURLToPath(new URL('../../../docs/deployment.md', import.meta.url)),
];

/** Each block's name and the policy it shows. */
const BLOCKS: Record<string, () => string> = {
  'partner-csp': () => formatCsp(partnerCsp(DOCS_EXAMPLE), { lines: true }),
  // As the e2e suite serves it: a brand whose logo the BFF serves.
  'strict-partner-csp': () =>
    formatCsp(strictPartnerCsp({ bffOrigin: DOCS_EXAMPLE.bffOrigin }), { lines: true }),
};

/** `markdown` with every marked block holding the current policy, as a `text` code block. */
export function renderCspBlocks(markdown: string): string {
  return markdown.replace(
    /(<!-- ([\w-]+):start -->\n)[\s\S]*?(<!-- \2:end -->)/g,
    (whole, start: string, name: string, end: string) => {
      const render = BLOCKS[name];
      return render ? `${start}\`\`\`text\n${render()}\n\`\`\`\n${end}` : whole;
    },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const path of CSP_DOCUMENTS) {
    const text = readFileSync(path, 'utf8');
    const rendered = renderCspBlocks(text);
    if (rendered !== text) writeFileSync(path, rendered);
    console.log(`${rendered === text ? 'up to date' : 'rendered'}: ${path}`);
  }
}
