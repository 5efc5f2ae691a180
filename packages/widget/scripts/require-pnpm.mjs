#!/usr/bin/env node
/**
 * @module
 * The first step of `prepack`: the package is packed and published with pnpm only. The workspace manifest
 * exports `./testing` (test support for the e2e and bench suites); pnpm replaces `exports` with
 * `publishConfig.exports` in the packed manifest, npm and the other clients do not, and would publish an
 * export of a file that is not in the package. Exits 1, saying so, when another client runs the pack.
 */
import { basename } from 'node:path';

// The client that runs a lifecycle script names itself in npm_execpath (npm's `npm-cli.js`, pnpm's `pnpm` or
// `pnpm.cjs`); npm_config_user_agent alone is not enough: npm run inside a pnpm script inherits pnpm's.
const client = basename(process.env.npm_execpath ?? '');

if (!/^pnpm(\.[cm]?js)?$/.test(client)) {
  console.error(
    `@esim-embed/widget is packed and published with pnpm, not ${client || 'this client'}: only pnpm applies ` +
      'publishConfig.exports, which keeps the workspace-only ./testing export out of the published manifest.\n' +
      'Run `npx -y pnpm@12.21.0 publish` (or `pnpm pack`) in packages/widget; see "Releasing" in packages/widget/README.md.',
  );
  process.exit(1);
}
