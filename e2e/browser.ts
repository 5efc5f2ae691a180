/**
 * @module
 * Which Chromium the browser tests drive. Playwright cannot download its own browser on every machine, so
 * the suite uses a system Chromium (Debian's `chromium`, or a path in `ESIM_E2E_CHROMIUM`) and fails loudly
 * when there is none: a missing browser must never turn into skipped tests.
 */
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The path of the Chromium to drive; throws with what to install when there is none. */
export function chromiumPath(): string {
  const configured = process.env.ESIM_E2E_CHROMIUM;
  if (configured) {
    if (!existsSync(configured)) {
      throw new Error(`ESIM_E2E_CHROMIUM points at ${configured}, which does not exist.`);
    }
    return configured;
  }
  const found = CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Install it (Debian: `apt-get install chromium`) ' +
        `or set ESIM_E2E_CHROMIUM to its path. Looked in: ${CANDIDATES.join(', ')}.`,
    );
  }
  return found;
}

/** Flags headless Chromium needs in a container with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
