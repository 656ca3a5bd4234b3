// The planning area's use cases over a database, as compose.ts wires them, for tests and the
// benchmark: the published account-and-module limits of a production account in force, the
// retention's default of 7 days, integration names from the registry, a fixed clock, and the
// integrations' reported minutes read by their area's reader (or a test's double of that port).
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { BUILT_IN_OPERATIONS } from '../../shared/data-subject-operations';
import { MODULE_RULES } from '../../shared/rate-limits';
import type { IntegrationStore } from '../integrations/integration-store';
import { ReportedMinutesReader } from '../integrations/reported-minutes-reader';
import type { ReadinessDeps } from '../planning/migration-readiness';
import { TrafficStore, type ReportedMinutes } from '../planning/traffic-store';
import type { SqlDatabase } from '../store/database';

export function planningDeps(
  db: SqlDatabase,
  integrations: Pick<IntegrationStore, 'names'>,
  now: number,
  reported: ReportedMinutes = new ReportedMinutesReader(db, { connection: DEFAULT_CONNECTION }),
): ReadinessDeps & { store: TrafficStore } {
  const inForce = {
    policy: 'account-and-module',
    tier: 'production',
    overrides: {},
    moduleRules: MODULE_RULES,
  } as const;
  return {
    store: new TrafficStore(() => Promise.resolve(db), reported, {
      connection: DEFAULT_CONNECTION,
    }),
    inForce,
    connections: [{ name: DEFAULT_CONNECTION, label: 'Production', inForce }],
    retentionDays: 7,
    integrationNames: () => integrations.names(),
    now: () => now,
    operations: BUILT_IN_OPERATIONS,
  };
}
