/**
 * @module
 * `GET /capabilities` (any valid key), `GET /account` and `GET /account/balance` (`balance:read`): the
 * key's account with its brand, pricing, limits and prepaid balance.
 */

import { createHash } from 'node:crypto';
import {
  type Capabilities,
  CapabilityIdSchema,
  type GrantedScope,
  GrantedScopeSchema,
  type TenantAttestation,
} from '@esim-embed/shared';
import { Hono } from 'hono';
import { requireScope } from '../http/api-key-auth';
import { sendResource } from '../http/envelope';
import { accountView } from '../http/resource-views';
import type { SandboxEnv } from '../http/sandbox-env';
import { SANDBOX_ACCOUNTS } from '../seed/accounts';
import { AURORA_BRAND_KEY } from '../seed/retail-brands';
import type { SandboxState } from '../state/sandbox-state';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Aurora's keys are brand-scoped: their capabilities carry a tenant attestation; the others are generic. */
function attestationFor(
  accountId: string,
  environment: Capabilities['environment'],
): TenantAttestation | null {
  if (accountId !== SANDBOX_ACCOUNTS.aurora) return null;
  return {
    schemaVersion: 1,
    kind: 'retail_brand_cell',
    brandKey: AURORA_BRAND_KEY,
    environment,
    manifest: { configVersion: 3, digest: sha256('aurora-travel:manifest:3') },
    factory: {
      schemaVersion: 1,
      configVersion: 2,
      configDigest: sha256('aurora-travel:factory:2'),
      templateVersion: '2026.10.1',
    },
  };
}

/** The account and capabilities routes. */
export function accountRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();
  const granted = new Set<string>(GrantedScopeSchema.options);

  routes.get('/capabilities', function readCapabilities(c) {
    const { key, account, env } = c.get('auth');
    const capabilities: Capabilities = {
      contractStatus: 'stable',
      environment: env.environment,
      tenantAttestation: attestationFor(account.seed.id, env.environment),
      grantedScopes: key.seed.scopes.filter((scope): scope is GrantedScope => granted.has(scope)),
      settlement: {
        currency: account.seed.currency,
        amountFormat: 'minor_units',
        wholeRubOnly: account.seed.wholeRubOnly,
        fundingMode: 'prepaid',
      },
      capabilities: CapabilityIdSchema.options.map((id) => ({ id, state: 'available' as const })),
      supplyOperations: account.supplyOperations.map((operation) => ({ ...operation })),
    };
    return sendResource(c, capabilities);
  });

  routes.get('/account', function readAccount(c) {
    const auth = requireScope(c, 'balance:read');
    return sendResource(c, accountView(auth.account, state.options.brandAssetsBaseUrl));
  });

  routes.get('/account/balance', function readBalance(c) {
    const auth = requireScope(c, 'balance:read');
    return sendResource(c, accountView(auth.account, state.options.brandAssetsBaseUrl).balance);
  });

  return routes;
}
