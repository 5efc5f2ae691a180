/**
 * @module
 * Signing a console user in: by name, password and — for a user with a second factor — a TOTP code; or by a
 * single sign-on proxy's header. A refusal never says which part was wrong, takes as long whether the name exists
 * or not, and counts against the name *from that address* and against the address: a stranger elsewhere who
 * guesses at a name never locks its owner out, and one address cannot try names without end. Wrong second-factor
 * codes after the right password are counted against the name alone as well: only someone who has the password
 * can aim that count, and without it six digits fall to enough addresses. Every sign-in, and every refused one of
 * a known user, goes into the audit log.
 */
import type { ConsoleSignInRequest } from '@esim-embed/shared/console';
import ipaddr from 'ipaddr.js';
import { constantTimeEqual } from '../checkout/checkout-access';
import type { ConsoleConfig, ConsoleSso } from '../config/config-schema';
import { ApiError } from '../errors';
import type { KeyedDigest } from '../security/keyed-digest';
import { type LimitSpec, rateLimited } from '../security/rate-limit';
import { STORE_KEYS, type Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { ConsoleAudit } from './console-audit';
import { type ConsolePartner, partnerIsLive, partnerOf } from './console-partners';
import type { ConsoleSessions, OpenSession } from './console-sessions';
import { type ConsoleUsers, normalUsername, type StoredConsoleUser } from './console-users';
import { decoyPasswordHash, verifyPassword } from './password-hash';
import { matchTotp } from './totp';

/** A user signed in: their new session and its cookie token. */
export interface SignedIn {
  token: string;
  session: OpenSession;
  user: StoredConsoleUser;
  partner: ConsolePartner;
}

export interface ConsoleSignInOptions {
  config: ConsoleConfig;
  store: Store;
  users: ConsoleUsers;
  sessions: ConsoleSessions;
  audit: ConsoleAudit;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  /** Names a sign-in name in the failure counters' names (the same key as the users' name index). */
  usernameDigest: KeyedDigest;
  /** The proxy's shared secret (`sso.secretEnv`), when one is configured. */
  ssoSecret: string | undefined;
  now: () => number;
}

const credentials = () => new ApiError('unauthorized', { params: { reason: 'credentials' } });

/**
 * Wrong codes after the right password, from any address, within `lockoutMinutes`, after which the name's second
 * factor waits. A code is one of three in a million (the step and its neighbours): ten a window leaves an
 * attacker who holds the password no useful chance, and its owner a few typos.
 */
const WRONG_CODES_PER_USER = 10;

/** An address as compared with the configured proxies (an IPv4 address mapped into IPv6 as IPv4). */
function plainAddress(address: string): string | null {
  return ipaddr.isValid(address) ? ipaddr.process(address).toNormalizedString() : null;
}

/** The sign-in of the console: with a password, and through the proxy. */
export function createConsoleSignIn(options: ConsoleSignInOptions) {
  const { config, store, users, sessions, audit } = options;
  const windowMs = config.lockoutMinutes * 60_000;
  const counters = (username: string, address: string) => ({
    pair: {
      name: `console-sign-in-failures:${options.usernameDigest(normalUsername(username))}:${address}`,
      limit: config.failuresPerUserAndAddress,
      windowMs,
    },
    address: { name: `console-sign-in-failures:${address}`, limit: config.failuresPerAddress, windowMs },
  });
  const wrongCodes = (user: StoredConsoleUser): LimitSpec => ({
    name: `console-second-factor-failures:${user.id}`,
    limit: WRONG_CODES_PER_USER,
    windowMs,
  });
  const trustedProxies = new Set(
    (config.sso?.trustedProxies ?? []).map(plainAddress).filter((value) => value !== null),
  );

  /** Refuse now when any of `specs` counted too many failures in the window. */
  async function refuseWhileLocked(specs: readonly LimitSpec[]): Promise<void> {
    for (const spec of specs) {
      // An increment by nothing reads the counter (every store counts this way).
      const { count, resetInMs } = await store.increment(STORE_KEYS.counter(spec.name), 0, spec.windowMs);
      if (count >= spec.limit) throw rateLimited(spec, resetInMs);
    }
  }

  async function failed(
    username: string,
    address: string,
    user: StoredConsoleUser | null,
    also: readonly LimitSpec[] = [],
  ): Promise<never> {
    await Promise.all(
      [...Object.values(counters(username, address)), ...also].map((spec) =>
        store.increment(STORE_KEYS.counter(spec.name), 1, spec.windowMs),
      ),
    );
    if (user !== null) {
      await audit.record({
        partnerId: user.partnerId,
        action: 'sign_in_refused',
        actor: { userId: user.id, username: user.username },
      });
    }
    throw credentials();
  }

  async function openFor(user: StoredConsoleUser, partner: ConsolePartner, via: 'password' | 'sso') {
    const { token, session } = await sessions.open(user.id, via);
    await audit.record({
      partnerId: partner.id,
      action: 'sign_in',
      actor: { userId: user.id, username: user.username },
      detail: { via },
    });
    return { token, session, user, partner };
  }

  return {
    /** Sign in with a password (and code); `address` is the request's counted (keyed) address. */
    async withPassword(request: ConsoleSignInRequest, address: string): Promise<SignedIn> {
      if (config.sso !== undefined && !config.sso.passwordSignIn) {
        throw new ApiError('forbidden', { params: { reason: 'sso_only' } });
      }
      await refuseWhileLocked(Object.values(counters(request.username, address)));
      const user = await users.byName(request.username);
      const hash = user?.passwordHash ?? (await decoyPasswordHash());
      const passwordOk = await verifyPassword(request.password, hash);
      if (user === null || user.passwordHash === null || !passwordOk || user.disabled) {
        return await failed(request.username, address, user);
      }
      const partner = partnerOf(options.widgets, user.partnerId);
      if (partner === null) return await failed(request.username, address, user);
      let usedStep: number | null = null;
      const secret = users.secondFactorOf(user);
      if (user.secondFactor !== null) {
        // The password was right: the page asks for the code (not counted as a failure).
        if (request.totp === undefined)
          throw new ApiError('unauthorized', { params: { reason: 'second_factor' } });
        await refuseWhileLocked([wrongCodes(user)]);
        usedStep =
          secret === null ? null : matchTotp(secret, request.totp, options.now(), user.secondFactor.usedStep);
        if (usedStep === null) return await failed(request.username, address, user, [wrongCodes(user)]);
      } else if (user.role === 'admin' && partnerIsLive(partner)) {
        throw new ApiError('forbidden', { params: { reason: 'second_factor_required' } });
      }
      // The code is spent by the same write that records the sign-in: a second use of it loses there.
      if (!(await users.signedIn(user, options.now(), usedStep))) {
        return await failed(request.username, address, user);
      }
      return await openFor(user, partner, 'password');
    },

    /**
     * The user a single sign-on proxy names, signed in — or null when the request carries no such header, or
     * carries it from anyone but the proxy (then it is ignored, and the request is as if signed out).
     */
    async withProxy(
      headers: (name: string) => string | undefined,
      socketAddress: string | undefined,
    ): Promise<SignedIn | null> {
      const sso: ConsoleSso | undefined = config.sso;
      if (sso === undefined) return null;
      const name = headers(sso.userHeader)?.trim();
      if (name === undefined || name === '') return null;
      const presented = headers(sso.secretHeader);
      const bySecret =
        options.ssoSecret !== undefined &&
        presented !== undefined &&
        constantTimeEqual(presented, options.ssoSecret);
      const socket = socketAddress === undefined ? null : plainAddress(socketAddress);
      const byAddress = socket !== null && trustedProxies.has(socket);
      if (!bySecret && !byAddress) return null;
      const partner = partnerOf(options.widgets, sso.partner);
      if (partner === null) return null;
      let user = await users.byName(name);
      if (user === null && sso.signUpRole !== undefined) {
        user = (
          await users.add(partner, {
            username: name,
            password: null,
            role: sso.signUpRole,
            // The company's single sign-on is the second factor here.
            secondFactor: false,
            createdBy: 'sso',
          })
        ).user;
      }
      // Another partner's user of the same name is never signed in as this partner's.
      if (user === null || user.disabled || !partner.widgets.has(user.partnerId)) throw credentials();
      await users.signedIn(user, options.now(), null);
      return await openFor(user, partner, 'sso');
    },
  };
}

export type ConsoleSignIn = ReturnType<typeof createConsoleSignIn>;
