/**
 * @module
 * The documents a release folder carries, so that a reseller who has the folder and not the repository has what
 * it needs to run it: the deployment and configuration guides, the going-live checklist, the partner API, the
 * webhooks, payments, privacy and console pages, the widget's embed guide and the partner SDK's, and the `deploy/` files
 * those guides show (nginx with TLS, the systemd unit). Each keeps its place under `docs/` and `deploy/`, so the
 * links between them stay as written; a link to a file the release also carries (the config example and schema)
 * is pointed at the release's copy, and a link to anything else of the repository (the architecture, the
 * sources, the examples) becomes an absolute link to that file at the release's tag. Every relative link in the
 * folder's Markdown thus resolves inside the folder (the release test checks it).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

/** Where each document of the repository goes in the release folder. */
export const RELEASE_DOCS = {
  'docs/deployment.md': 'docs/deployment.md',
  'docs/configuration.md': 'docs/configuration.md',
  'docs/going-live.md': 'docs/going-live.md',
  'docs/partner-api.md': 'docs/partner-api.md',
  'docs/webhooks.md': 'docs/webhooks.md',
  'docs/payments.md': 'docs/payments.md',
  'docs/privacy.md': 'docs/privacy.md',
  'docs/console.md': 'docs/console.md',
  'packages/widget/README.md': 'docs/widget.md',
  'packages/partner/README.md': 'docs/partner-sdk.md',
  'deploy/nginx/esim-embed.conf': 'deploy/nginx/esim-embed.conf',
  'deploy/systemd/esim-embed.service': 'deploy/systemd/esim-embed.service',
};

/** Files the release writes itself, which links of the documents may name by their repository path. */
const WRITTEN_BY_THE_RELEASE = {
  'docs/examples/bff.config.json': 'config.example.json',
  'packages/bff/config.schema.json': 'config.schema.json',
};

/** The repository's address on GitHub, from the published SDK's manifest. */
function repositoryUrl(root) {
  const { repository } = JSON.parse(readFileSync(join(root, 'packages/partner/package.json'), 'utf8'));
  return repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/**
 * `markdown` (the repository's `from`, copied to the release's `to`) with each relative link outside its code
 * blocks pointed at the release's copy of its target, or at the target in the repository at `tag`.
 */
export function releaseLinks(markdown, { from, to, root, tag, places }) {
  const repository = repositoryUrl(root);
  // Code blocks are the odd parts of a split on their fences: links are rewritten in the prose only.
  return markdown
    .split(/(```[\s\S]*?```)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/\]\(([^)\s]+)\)/g, (link, target) => {
            if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return link;
            const [path, anchor] = target.split(/(?=#)/);
            const inRepository = posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(path)));
            const inRelease = places[inRepository];
            if (inRelease !== undefined) {
              return `](${posix.relative(posix.dirname(to), inRelease) || '.'}${anchor ?? ''})`;
            }
            const folder =
              existsSync(join(root, inRepository)) && statSync(join(root, inRepository)).isDirectory();
            return `](${repository}/${folder ? 'tree' : 'blob'}/${tag}/${inRepository}${anchor ?? ''})`;
          }),
    )
    .join('');
}

/** Copy the documents into the release folder `out`; returns the release paths written. */
export function copyReleaseDocs({ root, out, version }) {
  const tag = `v${version}`;
  const carried = Object.entries(RELEASE_DOCS);
  const places = { ...WRITTEN_BY_THE_RELEASE, ...Object.fromEntries(carried) };
  for (const [from, to] of carried) {
    mkdirSync(dirname(join(out, to)), { recursive: true });
    if (!from.endsWith('.md')) {
      copyFileSync(join(root, from), join(out, to));
      continue;
    }
    const markdown = readFileSync(join(root, from), 'utf8');
    writeFileSync(join(out, to), releaseLinks(markdown, { from, to, root, tag, places }));
  }
  return carried.map(([, to]) => to);
}
