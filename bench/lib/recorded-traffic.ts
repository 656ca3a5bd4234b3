// A week of recorded traffic for the replay scenarios: per-minute reports from many integrations
// over 40 operation templates (each integration calling 4 of them, busier by day than by night),
// written into a console database as reports would leave them, and the custom policy the
// scenarios replay against it.
import { DEFAULT_CONNECTION } from '../../src/shared/connections';
import { OPERATION_TEMPLATES } from '../../src/shared/operation-templates';
import type { PolicyChoice } from '../../src/shared/planning';
import { MODULE_RULES } from '../../src/shared/rate-limits';
import { IntegrationStore } from '../../src/server/integrations/integration-store';
import type { SqlDatabase } from '../../src/server/store/database';
import { addToAccountTraffic, type SourceRow } from '../../src/server/planning/traffic-store';

const MINUTE_MS = 60_000;
const TEMPLATES_PER_INTEGRATION = 4;
export const TEMPLATE_COUNT = 40;

/** A custom policy a little below the busy hours' traffic, so every day has breaches. */
export const REPLAYED_POLICY: Extract<PolicyChoice, { kind: 'custom' }> = {
  kind: 'custom',
  accountMinute: 2_600,
  accountHour: 140_000,
  endpointMinute: 150,
  moduleRules: MODULE_RULES.filter((rule) => rule.kind === 'hard').map((rule) => ({
    id: rule.id,
    minute: rule.limits.find((window) => window.period === 'MINUTE')?.limit ?? null,
    hour: rule.limits.find((window) => window.period === 'HOUR')?.limit ?? null,
  })),
};

/** Requests of one report row: about 10, twice that in the afternoon, a third of it at night. */
function requestsAt(minute: number, integration: number, template: number): number {
  const hour = new Date(minute).getUTCHours();
  const curve = hour >= 9 && hour < 18 ? 1.6 : hour >= 1 && hour < 6 ? 0.35 : 0.9;
  const wobble = ((minute / MINUTE_MS + integration * 7 + template * 13) % 11) / 10;
  return Math.max(1, Math.round(10 * curve * (0.5 + wobble)));
}

export interface RecordedTraffic {
  readonly registry: IntegrationStore;
  /** The last minute recorded (epoch ms): the current one when the traffic was written. */
  readonly now: number;
  readonly requests: number;
  readonly rows: number;
}

/**
 * Writes `days` of traffic from `integrations` integrations into `db`, ending with the current
 * minute. How reports accumulate is not what is measured (the ingest scenario is): the rows go in
 * directly, the account totals beside them in the same transactions, as a report does.
 */
export async function writeRecordedTraffic(
  db: SqlDatabase,
  integrations: number,
  days: number,
): Promise<RecordedTraffic> {
  // The console recognises 26 operation templates today (a report's other paths count as
  // "(other)"); the rest of the 40 stand for the operations a larger catalog would add.
  const templates = [
    ...OPERATION_TEMPLATES,
    ...Array.from({ length: TEMPLATE_COUNT - OPERATION_TEMPLATES.length }, (_, index) => ({
      method: 'GET' as const,
      template: `/api/bench/v1/resource-${index + 1}`,
    })),
  ].slice(0, TEMPLATE_COUNT);
  const registry = new IntegrationStore(db, Date.now);
  const ids: string[] = [];
  for (let index = 0; index < integrations; index += 1) {
    ids.push(
      (await registry.register(`Integration ${index + 1}`, 'bench', DEFAULT_CONNECTION)).integration
        .id,
    );
  }
  const now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const first = now - (days * 1_440 - 1) * MINUTE_MS;
  let requests = 0;
  let rows = 0;
  for (let minute = first; minute <= now; minute += 30 * MINUTE_MS) {
    await db.transaction(async (tx) => {
      const written: SourceRow[] = [];
      for (let m = minute; m < Math.min(now + MINUTE_MS, minute + 30 * MINUTE_MS); m += MINUTE_MS) {
        for (let integration = 0; integration < integrations; integration += 1) {
          for (let k = 0; k < TEMPLATES_PER_INTEGRATION; k += 1) {
            const t = (integration * TEMPLATES_PER_INTEGRATION + k) % templates.length;
            const template = templates[t]!;
            const count = requestsAt(m, integration, t);
            requests += count;
            rows += 1;
            await tx.query(
              `INSERT INTO integration_minutes (integration_id, minute, method, template, requests, throttled)
               VALUES ($1, $2, $3, $4, $5, 0)`,
              [
                ids[integration],
                new Date(m).toISOString(),
                template.method,
                template.template,
                count,
              ],
            );
            written.push({
              source: ids[integration]!,
              minute: m,
              method: template.method,
              template: template.template,
              requests: count,
              throttled: 0,
            });
          }
        }
      }
      await addToAccountTraffic(
        tx,
        written.map((row) => ({ ...row, connection: DEFAULT_CONNECTION })),
      );
    });
  }
  return { registry, now, requests, rows };
}
