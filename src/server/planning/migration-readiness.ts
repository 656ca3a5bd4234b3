// The v4 migration readiness report: every data-subject call the account made in a period (the
// console's own and each integration's, by operation template), the legacy ones beside the v4
// operation the catalog says replaces each, what the documented answers of the two differ in (the
// comparison the lookup page's "Compare with legacy" runs, here on the documents' own fields),
// which limit counts each call before and after, and the share already on v4: overall, per
// source and per day.
import { compareAnswers, RECORDS_PATH } from '../../shared/compare-answers';
import { contractOperation } from '../../shared/data-subject-contract';
import { operationLabel, type DataSubjectOperation } from '../../shared/data-subject-operations';
import type { LegacyUse, MigrationReport, PlanningPeriod } from '../../shared/planning';
import { PLATFORM_OPERATIONS, type PlatformOperation } from '../../shared/platform-operations';
import {
  accountMinuteCeiling,
  describeLimits,
  limitName,
  rulesApplyingTo,
  type RateLimitRule,
} from '../../shared/rate-limits';
import { sampleOf } from '../../shared/schema-fields';
import { rulesOf } from './policies';
import {
  connectionOf,
  periodWindow,
  setAsideListed,
  sourceName,
  type PlanningDeps,
} from './what-if';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** A catalog operation with the template its calls are recorded under. */
interface Recorded {
  readonly operation: DataSubjectOperation;
  readonly method: string;
  readonly template: string;
}

function recordedOperations(operations: readonly DataSubjectOperation[]): Recorded[] {
  const byId = PLATFORM_OPERATIONS as Readonly<Record<string, PlatformOperation>>;
  return operations.flatMap((operation) => {
    const documented = operation.operationId ? byId[operation.operationId] : undefined;
    return documented ? [{ operation, method: documented.method, template: documented.path }] : [];
  });
}

/** The limit other than the account's that counts a call: a module rule or the per-endpoint one. */
function countingRule(method: string, template: string, rules: readonly RateLimitRule[]) {
  const rule = rulesApplyingTo(method, template, rules).find(
    (candidate) => candidate.scope !== 'account',
  );
  return rule ? { id: rule.id, name: limitName(rule.id), limits: describeLimits(rule) } : null;
}

/**
 * What the two documented answers differ in: fields only v4 has, only the legacy one has, and the
 * legacy ones v4 carries under another shape.
 */
function documentedDifferences(v4: DataSubjectOperation, legacy: DataSubjectOperation) {
  const v4Answer = contractOperation(v4.operationId)?.answer;
  const legacyAnswer = contractOperation(legacy.operationId)?.answer;
  if (!v4Answer || !legacyAnswer) return { v4Adds: [], v4LeavesOut: [], v4Reshapes: [] };
  const fields = v4.legacy.find((entry) => entry.operation === legacy.id)?.fields;
  const comparison = compareAnswers(sampleOf(v4Answer), sampleOf(legacyAnswer), fields);
  // A list or object only one side has is named once, not again with each of its fields.
  const named = (paths: readonly string[]) =>
    paths.filter(
      (path) =>
        path !== RECORDS_PATH &&
        !paths.some(
          (other) =>
            other !== path &&
            (path.startsWith(`${other}.`) || (other.endsWith('[]') && path.startsWith(other))),
        ),
    );
  return {
    v4Adds: named(comparison.onlyInV4),
    v4LeavesOut: named(comparison.onlyInLegacy),
    v4Reshapes: comparison.reshaped,
  };
}

export interface ReadinessDeps extends PlanningDeps {
  readonly operations: readonly DataSubjectOperation[];
}

export async function migrationReadiness(
  deps: ReadinessDeps,
  period: PlanningPeriod,
): Promise<MigrationReport> {
  const { from, to } = periodWindow(period, deps);
  const recorded = recordedOperations(deps.operations);
  const rules = rulesOf({ kind: 'published', version: deps.inForce.policy }, deps.inForce);
  // Minutes the account view sets aside (docs/account-wide-view.md) are not calls the account
  // made: left out, and listed.
  const ceiling = accountMinuteCeiling(rules);
  const [rows, setAside] = await Promise.all([
    deps.store.dailyBySource(from, to, recorded, ceiling),
    ceiling === undefined ? [] : deps.store.minutesAtCeiling(from, to, ceiling),
  ]);
  const names = await deps.integrationNames();
  const recordOf = new Map(recorded.map((entry) => [`${entry.method} ${entry.template}`, entry]));

  const perOperation = new Map<string, { calls: number; callers: Map<string, number> }>();
  const perSource = new Map<string, { calls: number; v4Calls: number }>();
  const perDay = new Map<string, { calls: number; v4Calls: number }>();
  for (let day = Math.floor(from / DAY_MS) * DAY_MS; day <= to; day += DAY_MS) {
    perDay.set(iso(day).slice(0, 10), { calls: 0, v4Calls: 0 });
  }
  let calls = 0;
  let v4Calls = 0;
  for (const row of rows) {
    const entry = recordOf.get(`${row.method} ${row.template}`);
    if (!entry) continue;
    const isV4 = entry.operation.version === 'v4';
    calls += row.calls;
    if (isV4) v4Calls += row.calls;
    const operation = perOperation.get(entry.operation.id) ?? { calls: 0, callers: new Map() };
    operation.calls += row.calls;
    operation.callers.set(row.source, (operation.callers.get(row.source) ?? 0) + row.calls);
    perOperation.set(entry.operation.id, operation);
    const source = perSource.get(row.source) ?? { calls: 0, v4Calls: 0 };
    source.calls += row.calls;
    if (isV4) source.v4Calls += row.calls;
    perSource.set(row.source, source);
    const day = perDay.get(row.day) ?? { calls: 0, v4Calls: 0 };
    day.calls += row.calls;
    if (isV4) day.v4Calls += row.calls;
    perDay.set(row.day, day);
  }

  const legacy: LegacyUse[] = recorded
    .filter((entry) => entry.operation.version !== 'v4' && perOperation.has(entry.operation.id))
    .map((entry) => {
      const used = perOperation.get(entry.operation.id) ?? { calls: 0, callers: new Map() };
      const replacements = recorded
        .filter(
          (candidate) =>
            candidate.operation.version === 'v4' &&
            candidate.operation.legacy.some((item) => item.operation === entry.operation.id),
        )
        .map((candidate) => {
          const differences = documentedDifferences(candidate.operation, entry.operation);
          return {
            operation: candidate.operation.id,
            title: candidate.operation.title,
            method: candidate.method,
            template: candidate.template,
            note:
              candidate.operation.legacy.find((item) => item.operation === entry.operation.id)
                ?.note ?? '',
            ...differences,
            complete: differences.v4LeavesOut.length === 0,
            ruleBefore: countingRule(entry.method, entry.template, rules),
            ruleAfter: countingRule(candidate.method, candidate.template, rules),
          };
        });
      return {
        method: entry.method,
        template: entry.template,
        operation: entry.operation.id,
        title: operationLabel(entry.operation),
        calls: used.calls,
        callers: [...used.callers]
          .map(([source, count]) => ({ source, name: sourceName(source, names), calls: count }))
          .sort((a, b) => b.calls - a.calls),
        replacements,
        noReplacement:
          replacements.length === 0
            ? 'The migration guide names no v4 operation that replaces it; keep it, or ask the vendor.'
            : null,
      };
    })
    .sort((a, b) => b.calls - a.calls);

  return {
    connection: connectionOf(deps),
    period,
    from: iso(from),
    to: iso(to + 60_000),
    dataSubjectCalls: calls,
    v4Calls,
    readiness: share(v4Calls, calls),
    bySource: [...perSource]
      .map(([source, counts]) => ({
        source,
        name: sourceName(source, names),
        ...counts,
        readiness: share(counts.v4Calls, counts.calls),
      }))
      .sort((a, b) => b.calls - a.calls),
    trend: [...perDay]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, counts]) => ({ day, ...counts, readiness: share(counts.v4Calls, counts.calls) })),
    legacy,
    v4: recorded
      .filter((entry) => entry.operation.version === 'v4' && perOperation.has(entry.operation.id))
      .map((entry) => ({
        operation: entry.operation.id,
        title: entry.operation.title,
        template: entry.template,
        calls: perOperation.get(entry.operation.id)?.calls ?? 0,
      }))
      .sort((a, b) => b.calls - a.calls),
    setAside: setAsideListed(setAside, names),
    generatedAt: iso(deps.now()),
  };
}
