/**
 * @module
 * Manage tokens: the bearer key to one eSIM's own view in one widget ("my eSIM"). A token is 128 random bits
 * (26 lowercase base32 characters, short enough for an SMS); the store keeps a record under the token's
 * SHA-256 only (eSIM, widget, checkout, expiry, revocation), so reading the store never yields a usable token.
 * One link per eSIM and widget: minting again returns the same token (kept sealed with AES-GCM under the key
 * ring's `manage-link-seal` key, which the store never sees), so a reload of the install step never multiplies
 * year-long secrets. Verifying needs no key, so rotating the root secret never breaks a link already sent. Every token of an eSIM is revoked
 * at once by a not-before time checked on every use.
 *
 * Tokens of the release before (signed JWTs, `mlk_` ids inside) are still verified until they expire, with the
 * key they were signed with; the not-before time and per-id revocations recorded then apply to them too.
 */
import type { ManageLink, RevokedManageLink, RevokedManageLinks } from '@esim-embed/shared';
import { z } from 'zod';
import { ApiError } from '../errors';
import { purposeKeys } from '../security/key-ring';
import type { ManageClaims } from '../security/manage-claims';
import { STORE_KEYS, type Store } from '../store/store';
import { leaveValue, storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import { createLegacyManageVerifier } from './legacy-manage-token';
import { hashOf, newToken, seal, unseal } from './manage-token-crypto';

/** The longest a manage token lives, whatever the plan's service end (a year). */
export const MAX_MANAGE_TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;
/** When the plan's service end is not known yet (not activated), the token lives this long. */
export const DEFAULT_MANAGE_TOKEN_TTL_MS = 180 * 24 * 60 * 60 * 1000;
/** How long a record stays after its token expired, so that a late use reads `expired`, not `unknown`. */
const EXPIRED_RECORD_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
/** A manage token: 16 random bytes in lowercase base32 (no padding). */
export const MANAGE_TOKEN_PATTERN = /^[a-z2-7]{26}$/;
/** A manage link's public id (`mlk_` + the token's SHA-256): names the link for revocation, opens nothing. */
export const MANAGE_LINK_ID_PATTERN = /^mlk_[A-Za-z0-9_-]{16,64}$/;

/** The stored record of one manage link, under the SHA-256 of its token. Read tolerantly across releases. */
const ManageLinkRecordSchema = z.object({
  esimId: z.string(),
  widgetId: z.string(),
  environment: z.enum(['test', 'live']),
  /** The checkout whose install step minted it; null when the partner's server did. */
  checkoutId: z.string().nullable(),
  createdAtMs: z.number(),
  expiresAtMs: z.number(),
  revokedAt: z.string().nullable(),
});
type ManageLinkRecord = z.infer<typeof ManageLinkRecordSchema>;

/** The current link of one eSIM in one widget: the record's key and the token sealed under `kid`'s key. */
const CurrentLinkSchema = z.object({ hash: z.string(), kid: z.string(), sealed: z.string() });

export interface ManageTokensOptions {
  /** The root secrets, newest first: the first seals, every one unseals and verifies tokens signed before. */
  secrets: readonly Uint8Array[];
  store: Store;
  now?: () => number;
}

/** What a manage link opens and for how long. */
export interface ManageSubject {
  widgetId: string;
  environment: 'test' | 'live';
  esimId: string;
  /** The checkout whose install step asks for it; null for the partner's server. */
  checkoutId: string | null;
  /**
   * When the traveller's grant behind this mint was issued (the checkout's creation, with its client secret):
   * after a revoke-all of the eSIM, a grant issued until then mints nothing. Absent for the partner's server.
   */
  grantIssuedAtMs?: number;
  /** When the plan can no longer be used, if known: the link lives until then (capped). */
  serviceEndsAtMs: number | null;
}

/** Mints, verifies and revokes manage tokens. */
export interface ManageTokens {
  /** The live link of the subject's eSIM in its widget, minted on first use; the same one every time after. */
  mint(subject: ManageSubject): Promise<ManageLink>;
  /** The grant of a live token; `widget_session_invalid` otherwise. */
  verify(token: string): Promise<ManageClaims>;
  /** Revoke one link of a widget in `owners` (others, and unknown ids, are `not_found`). */
  revoke(linkId: string, owners: ReadonlySet<string>): Promise<RevokedManageLink>;
  /** Refuse every token of `esimId` issued until now, whoever minted it. */
  revokeAll(esimId: string): Promise<RevokedManageLinks>;
  /**
   * The traveller of `esimId` was erased (`privacy/`): every token of it, issued before or after, answers `erased`
   * (410) instead of opening the eSIM, and every one issued until now is revoked as `revokeAll` does.
   */
  erase(esimId: string): Promise<void>;
}

const invalid = (reason: string) => new ApiError('widget_session_invalid', { params: { reason } });
const linkNotFound = () => new ApiError('not_found', { params: { field: 'id' } });

function parseJson<T>(schema: z.ZodType<T>, text: string | undefined): T | null {
  if (text === undefined) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The {@link ManageTokens} of a BFF. */
export function createManageTokens(options: ManageTokensOptions): ManageTokens {
  const { store } = options;
  const now = options.now ?? Date.now;
  const sealing = purposeKeys(options.secrets, 'manage-link-seal');
  const verifyLegacy = createLegacyManageVerifier(options.secrets);

  const recordTtl = (record: ManageLinkRecord) =>
    Math.max(record.expiresAtMs - now(), 0) + EXPIRED_RECORD_KEPT_MS;
  const readRecord = async (hash: string) => {
    const stored = await store.get(STORE_KEYS.manageLink(hash));
    const record = parseJson(ManageLinkRecordSchema, stored?.value);
    return stored === null || record === null ? null : { record, version: stored.version };
  };
  const notBeforeOf = async (esimId: string): Promise<number | null> => {
    const stored = await store.get(STORE_KEYS.manageNotBefore(esimId));
    return stored === null ? null : Number(stored.value);
  };
  /** A token of an erased traveller's eSIM says so, whatever else holds of it (expired, revoked). */
  const refuseErased = async (esimId: string): Promise<void> => {
    if ((await store.get(STORE_KEYS.esimErased(esimId))) !== null) {
      throw new ApiError('erased', { params: { resource: 'esim' } });
    }
  };
  /** Why a record's token no longer opens anything, or null while it does. */
  const deadBecause = async (record: ManageLinkRecord): Promise<string | null> => {
    if (record.revokedAt !== null) return 'revoked';
    if (record.expiresAtMs <= now()) return 'expired';
    const notBefore = await notBeforeOf(record.esimId);
    return notBefore !== null && record.createdAtMs <= notBefore ? 'revoked' : null;
  };
  const linkOf = (token: string, record: ManageLinkRecord): ManageLink => ({
    id: `mlk_${hashOf(token)}`,
    manageToken: token,
    esimId: record.esimId,
    widgetId: record.widgetId,
    expiresAt: new Date(record.expiresAtMs).toISOString(),
  });
  const expiryFor = (serviceEndsAtMs: number | null) => {
    const time = now();
    return serviceEndsAtMs !== null && serviceEndsAtMs > time
      ? Math.min(serviceEndsAtMs, time + MAX_MANAGE_TOKEN_TTL_MS)
      : time + DEFAULT_MANAGE_TOKEN_TTL_MS;
  };

  /** The current link's token and record while it still opens the eSIM; its expiry follows the plan's. */
  async function liveCurrent(value: string, expiresAtMs: number, subject: ManageSubject) {
    const current = parseJson(CurrentLinkSchema, value);
    const key = current === null ? undefined : sealing.byKid(current.kid);
    // Sealed under a root secret no longer configured: that link keeps working, a new one is made here.
    const token = current && key ? unseal(key, current.sealed) : null;
    if (token === null || hashOf(token) !== current?.hash) return null;
    const found = await readRecord(current.hash);
    if (found === null || (await deadBecause(found.record)) !== null) return null;
    if (found.record.widgetId !== subject.widgetId || found.record.esimId !== subject.esimId) return null;
    // The plan's end is known once it is activated, and moves with a top-up: the link follows it.
    if (found.record.expiresAtMs !== expiresAtMs) {
      const moved = { ...found.record, expiresAtMs };
      if (
        await store.compareAndSet(
          STORE_KEYS.manageLink(current.hash),
          found.version,
          JSON.stringify(moved),
          recordTtl(moved),
        )
      ) {
        return linkOf(token, moved);
      }
    }
    return linkOf(token, found.record);
  }

  async function create(subject: ManageSubject, expiresAtMs: number) {
    const token = newToken();
    const hash = hashOf(token);
    const notBefore = await notBeforeOf(subject.esimId);
    const record: ManageLinkRecord = {
      esimId: subject.esimId,
      widgetId: subject.widgetId,
      environment: subject.environment,
      checkoutId: subject.checkoutId,
      // Minted in the very millisecond of a revoke-all, it must still be after it.
      createdAtMs: Math.max(now(), (notBefore ?? 0) + 1),
      expiresAtMs,
      revokedAt: null,
    };
    await store.insert(STORE_KEYS.manageLink(hash), JSON.stringify(record), recordTtl(record));
    const pointer = JSON.stringify({
      hash,
      kid: sealing.signing.kid,
      sealed: seal(sealing.signing.key, token),
    });
    // A link made by a mint that lost the race to another is dropped before anyone saw it.
    const discard = async () => {
      await store.compareAndDelete(STORE_KEYS.manageLink(hash), 1);
    };
    return { link: linkOf(token, record), pointer, discard };
  }

  const tokens: ManageTokens = {
    async mint(subject) {
      if (subject.grantIssuedAtMs !== undefined) {
        // Revoke-all ends every way back the traveller held then: its links and its checkout's client secret.
        const notBefore = await notBeforeOf(subject.esimId);
        if (notBefore !== null && subject.grantIssuedAtMs <= notBefore) {
          throw new ApiError('forbidden', { params: { reason: 'manage_links_revoked' } });
        }
      }
      const key = STORE_KEYS.manageLinkCurrent(subject.widgetId, subject.esimId);
      const expiresAtMs = expiryFor(subject.serviceEndsAtMs);
      // Two installs steps of one purchase may mint at once: compare-and-set makes one link win.
      const outcome = await versionedUpdate(
        storeSlot(store, key, MAX_MANAGE_TOKEN_TTL_MS),
        async (current) => {
          const live = current === null ? null : await liveCurrent(current.value, expiresAtMs, subject);
          if (live !== null) return leaveValue(live);
          const made = await create(subject, expiresAtMs);
          return writeValue(made.pointer, made.link, made.discard);
        },
      );
      if (outcome.kind === 'written' || outcome.kind === 'left') return outcome.result;
      throw new Error(`the manage link of eSIM ${subject.esimId} kept changing; try again`);
    },

    async verify(token) {
      if (token.length > 2048) throw invalid('malformed');
      if (MANAGE_TOKEN_PATTERN.test(token)) {
        const hash = hashOf(token);
        const found = await readRecord(hash);
        if (found === null) throw invalid('unknown');
        await refuseErased(found.record.esimId);
        const dead = await deadBecause(found.record);
        if (dead !== null) throw invalid(dead);
        const { widgetId: wid, environment: env, esimId: esim } = found.record;
        return { mid: `mlk_${hash}`, wid, env, esim };
      }
      const legacy = verifyLegacy(token, now());
      await refuseErased(legacy.esim);
      const [revoked, notBefore] = await Promise.all([
        store.get(STORE_KEYS.manageRevocation(legacy.mid)),
        notBeforeOf(legacy.esim),
      ]);
      if (revoked !== null || (notBefore !== null && legacy.iat * 1000 <= notBefore))
        throw invalid('revoked');
      return { mid: legacy.mid, wid: legacy.wid, env: legacy.env, esim: legacy.esim };
    },

    async revoke(linkId, owners) {
      if (!MANAGE_LINK_ID_PATTERN.test(linkId)) throw linkNotFound();
      const hash = linkId.slice('mlk_'.length);
      const outcome = await versionedUpdate(
        storeSlot(store, STORE_KEYS.manageLink(hash), (value) => recordTtl(JSON.parse(value))),
        (stored) => {
          const record = parseJson(ManageLinkRecordSchema, stored?.value);
          // A link of another partner's widget is answered as one that does not exist: nothing to probe.
          if (stored === null || record === null || !owners.has(record.widgetId)) throw linkNotFound();
          if (record.revokedAt !== null) return leaveValue({ id: linkId, revokedAt: record.revokedAt });
          const revoked = { ...record, revokedAt: new Date(now()).toISOString() };
          return writeValue(JSON.stringify(revoked), { id: linkId, revokedAt: revoked.revokedAt });
        },
      );
      if (outcome.kind === 'written' || outcome.kind === 'left') return outcome.result;
      throw new Error(`manage link ${linkId} kept changing; try again`);
    },

    async revokeAll(esimId) {
      const key = STORE_KEYS.manageNotBefore(esimId);
      // Every token lives at most a year, so the not-before time is needed no longer than that.
      const outcome = await versionedUpdate(storeSlot(store, key, MAX_MANAGE_TOKEN_TTL_MS), (stored) => {
        const notBefore = Math.max(now(), stored === null ? 0 : Number(stored.value));
        return writeValue(String(notBefore), { esimId, revokedBefore: new Date(notBefore).toISOString() });
      });
      if (outcome.kind === 'written') return outcome.result;
      throw new Error(`the manage links of eSIM ${esimId} kept changing; try again`);
    },

    async erase(esimId) {
      // Kept as long as any token of the eSIM can live: until then, every one of them answers `erased`.
      await store.insert(STORE_KEYS.esimErased(esimId), String(now()), MAX_MANAGE_TOKEN_TTL_MS);
      await tokens.revokeAll(esimId);
    },
  };
  return tokens;
}
