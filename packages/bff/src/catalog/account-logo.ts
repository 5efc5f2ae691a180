/**
 * @module
 * The upstream account's logo, served by the BFF from its own origin so that the widget never loads an image
 * from the upstream's host (a partner's CSP then needs only the BFF in `img-src`). Its address,
 * `/v1/brand/{widgetId}/logo/{hash}`, is named from data alone (the hash of the logo's upstream URL), so every
 * instance names the same immutable address; each instance fetches the image itself on first request, keeps
 * it in memory, and fetches again when the account's logo URL changes. A failed fetch is remembered for a
 * while, so that no stream of requests turns into a stream of fetches.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../logger';
import { fetchLogo, type LogoFetchOptions, type LogoImage, type LogoTestHost } from './logo-fetch';

/** Options of {@link createAccountLogo}. */
export interface AccountLogoOptions {
  widgetId: string;
  /** The BFF's public origin (`https://bff.example`); absent: the account's logo is not shown. */
  publicOrigin: string | undefined;
  /** Tests only: a local HTTPS image host the fetch may reach (`logo-fetch.ts`). */
  testHost?: LogoTestHost | undefined;
  logger: Logger;
  /** Default 5 s. */
  timeoutMs?: number;
  /** Default 1 MiB. */
  maxBytes?: number;
  /** How long a failed fetch is answered from memory before the next try. Default 60 s. */
  retryAfterMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** One widget's account logo. */
export interface AccountLogo {
  /** The BFF's address of the logo whose upstream URL is `sourceUrl`, or null when it has no public origin. */
  address(sourceUrl: string): string | null;
  /** The image at `sourceUrl` (from memory after the first fetch), or null when it cannot be used. */
  image(sourceUrl: string): Promise<LogoImage | null>;
}

/** The address's last segment for a logo URL: the same on every instance, new when the URL changes. */
export function accountLogoHash(sourceUrl: string): string {
  return createHash('sha256').update(`account-logo\n${sourceUrl}`).digest('hex').slice(0, 32);
}

/** The path of a widget's account logo on the BFF. */
export function accountLogoPath(widgetId: string, sourceUrl: string): string {
  return `/v1/brand/${encodeURIComponent(widgetId)}/logo/${accountLogoHash(sourceUrl)}`;
}

/** What is held for the current logo URL. */
interface Held {
  sourceUrl: string;
  image: Promise<LogoImage | null>;
  /** When a failed fetch may be tried again (never, while it succeeded or is in flight). */
  retryAt: number;
}

/**
 * A widget's account logo.
 *
 * @example
 * const logo = createAccountLogo({ widgetId: 'acme', publicOrigin, logger });
 * logo.address('https://cdn.upstream.example/acme.png'); // https://bff.example/v1/brand/acme/logo/3f…
 */
export function createAccountLogo(options: AccountLogoOptions): AccountLogo {
  const now = options.now ?? Date.now;
  const retryAfterMs = options.retryAfterMs ?? 60_000;
  const fetchOptions: LogoFetchOptions = {
    timeoutMs: options.timeoutMs ?? 5_000,
    maxBytes: options.maxBytes ?? 1024 * 1024,
    testHost: options.testHost,
  };
  let held: Held | undefined;
  let warnedNoOrigin = false;

  function load(sourceUrl: string): Held {
    const entry: Held = { sourceUrl, image: Promise.resolve(null), retryAt: Number.POSITIVE_INFINITY };
    entry.image = fetchLogo(sourceUrl, fetchOptions).catch((error: unknown) => {
      entry.retryAt = now() + retryAfterMs;
      options.logger.warn('account logo unavailable, the widget shows the brand name', {
        reason: error instanceof Error ? error.message : String(error),
      });
      return null;
    });
    return entry;
  }

  return {
    address(sourceUrl) {
      if (options.publicOrigin === undefined) {
        if (!warnedNoOrigin) {
          warnedNoOrigin = true;
          options.logger.warn(
            'the account logo is not shown: set ESIM_BFF_PUBLIC_ORIGIN for the BFF to serve it',
          );
        }
        return null;
      }
      return new URL(accountLogoPath(options.widgetId, sourceUrl), options.publicOrigin).href;
    },
    async image(sourceUrl) {
      if (held?.sourceUrl !== sourceUrl || now() >= held.retryAt) held = load(sourceUrl);
      return await held.image;
    },
  };
}
