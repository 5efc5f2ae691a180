/**
 * @module
 * The supply operations every seeded account starts with in each environment (`GET /capabilities`
 * `supplyOperations`): new eSIMs over the API, usage simulated, top-ups route-dependent (checked per eSIM by its
 * top-up offers), unused profiles cancelled over the API, reissues assisted. The control API changes them per
 * account and environment (`POST /__sandbox/accounts/{id}/supply`).
 */
import type { SupplyOperation } from '@esim-embed/shared';

export const SEED_SUPPLY_OPERATIONS: readonly SupplyOperation[] = [
  { id: 'issue', availability: 'available', access: 'api' },
  { id: 'usage', availability: 'simulated', access: 'api' },
  { id: 'top_up', availability: 'route_dependent', access: 'api' },
  { id: 'cancel_unused', availability: 'available', access: 'api' },
  { id: 'reissue', availability: 'available', access: 'assisted' },
];
