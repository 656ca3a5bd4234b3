// The replay in its own thread (replay-worker.ts, started from the composition root's entry as
// the console starts it), over the console's SQLite database in a data directory: the same result
// as on the event loop, and the same refusals the routes turn into problems.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyChoice } from '../../shared/planning';
import { startReplayThread } from '../compose';
import { IntegrationStore } from '../integrations/integration-store';
import { ReportAggregates } from '../integrations/report-aggregates';
import { openDatabase, type SqlDatabase } from '../store/database';
import { planningDeps } from '../test-support/planning-deps';
import { workerReplays, type RunReplay } from './replay-runner';
import { addToAccountTraffic } from './traffic-store';
import { NoRecordedTrafficError, whatIf, type PlanningDeps } from './what-if';

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 27, 12, 0, 30);
const LAST = Math.floor(NOW / MINUTE) * MINUTE;
const POLICY: PolicyChoice = {
  kind: 'custom',
  accountMinute: 50,
  accountHour: null,
  endpointMinute: null,
  moduleRules: [],
};

// From a checkout the thread compiles its TypeScript on start, which on a busy machine takes
// seconds; the built console's thread starts from JavaScript.
describe('a replay in its own thread', { timeout: 60_000 }, () => {
  let dataDir: string;
  let db: SqlDatabase;
  let deps: PlanningDeps;
  let run: RunReplay;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replay-thread-'));
    db = await openDatabase({ dataDir });
    const integrations = new IntegrationStore(db, () => NOW);
    const reports = new ReportAggregates(db, () => NOW, addToAccountTraffic);
    deps = planningDeps(db, integrations, NOW);
    const { integration } = await integrations.register(
      'CRM connector',
      'owners',
      DEFAULT_CONNECTION,
    );
    await reports.storeReport(
      integration.id,
      [
        {
          minute: LAST - 10 * MINUTE,
          method: 'GET',
          template: '/api/v1/x',
          requests: 80,
          throttled: 0,
        },
        {
          minute: LAST - 5 * MINUTE,
          method: 'GET',
          template: '/api/v1/x',
          requests: 30,
          throttled: 0,
        },
      ],
      [],
    );
    run = workerReplays({
      database: { kind: 'sqlite', dataDir },
      connection: DEFAULT_CONNECTION,
      spawn: startReplayThread,
      deps,
    });
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers what the replay on the event loop answers', async () => {
    const request = { period: 'hour', policy: POLICY } as const;
    const inThread = await run(request, new AbortController().signal);
    expect(inThread.chosen.refused).toBe(30);
    // Each run has an id of its own; everything else is the same.
    expect({ ...inThread, runId: null }).toEqual({ ...(await whatIf(deps, request)), runId: null });
  });

  it('refuses a period without traffic as the routes expect', async () => {
    await db.exec(
      'DELETE FROM integration_minutes; DELETE FROM account_minutes; DELETE FROM source_minutes',
    );
    await expect(
      run({ period: 'hour', policy: POLICY }, new AbortController().signal),
    ).rejects.toBeInstanceOf(NoRecordedTrafficError);
  });
});
