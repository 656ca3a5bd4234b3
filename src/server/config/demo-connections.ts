// Demo mode's connections: two mock platform accounts side by side, so the switcher, the
// per-connection pages and their records can be tried without a platform.
import type { ConnectionConfig } from './connection-config';
import type { ConnectionParts } from './connection-settings';
import { DEFAULT_CONNECTION } from '../../shared/connections';

/**
 * "Production (EU)" keeps the name `default`, so a demo data directory from before connections
 * existed keeps its records as production's; it has the settings the variables give (the
 * production tier unless ACCOUNT_TIER says otherwise). "UAT" is the same on the sandbox tier,
 * whose account limits are lower, so the two connections' limits visibly differ.
 */
export function demoConnections(production: ConnectionParts): ConnectionConfig[] {
  return [
    {
      name: DEFAULT_CONNECTION,
      label: 'Production (EU)',
      colour: 'blue',
      required: false,
      ...production,
    },
    {
      name: 'uat',
      label: 'UAT',
      colour: 'green',
      required: false,
      ...production,
      upstream: { ...production.upstream, accountTier: 'sandbox' },
    },
  ];
}
