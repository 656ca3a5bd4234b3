// The planning area's routes (docs/planning.md), one connection's, mounted at
// /api/connections/{connection}/planning (the first connection's also at /api/planning), for every
// role in that connection:
// - `GET /policies`: the policy in force, the other published version, the other connections'
//   policies in force, the module rules a custom policy may keep, the retention;
// - `POST /what-if`: a replay of the period's traffic against a policy (`?format=csv|markdown`
//   for the exports);
// - `GET /migration`: the v4 migration readiness report (same formats).
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import {
  CUSTOM_LIMIT_BOUNDS,
  ExportFormatSchema,
  MigrationReportSchema,
  PlanningPeriodSchema,
  PlanningPoliciesSchema,
  WhatIfRequestSchema,
  WhatIfResultSchema,
  type PlanningPolicies,
  type WhatIfResult,
} from '../../shared/planning';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv, RequestUser } from '../http/app-env';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import { firstIssue, invalidBody, readJson } from '../http/json-body';
import { HttpProblem, invalidParameter } from '../http/problem';
import { migrationReadiness, type ReadinessDeps } from './migration-readiness';
import { whatIfCsv, whatIfMarkdown } from '../../shared/what-if-report';
import { migrationCsv, migrationMarkdown } from './planning-exports';
import {
  chosenConnection,
  limitsOf,
  otherVersion,
  PolicyRejectedError,
  rulesOf,
  summaryOf,
} from './policies';
import { ReplayBusyError, type ReplayGate } from './replay-gate';
import type { RunReplay } from './replay-runner';
import { connectionOf, NoRecordedTrafficError, PeriodTooLongError } from './what-if';
import { NO_STORE } from '../http/no-store';
import { jsonValueAnswer } from '../http/gzip-answer';

const FormatQuerySchema = z.strictObject({ format: z.optional(ExportFormatSchema) });
const MigrationQuerySchema = z.strictObject({
  period: z.optional(PlanningPeriodSchema),
  format: z.optional(ExportFormatSchema),
});

/**
 * The query's parameters, each given once and each one of `allowed`: an unknown parameter is
 * refused rather than ignored, and a repeated one rather than read as its first or last value
 * (docs/security-model.md), as the list routes do (http/list-query.ts).
 */
function strictQuery(c: Context, allowed: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (!allowed.includes(name)) {
      throw invalidParameter(name, `unknown parameter; use ${allowed.join(', ')}`);
    }
    if (values.length !== 1) throw invalidParameter(name, 'give it at most once');
    query[name] = values[0] ?? '';
  }
  return query;
}

function formatOf(c: Context): 'csv' | 'markdown' | undefined {
  const parsed = FormatQuerySchema.safeParse(strictQuery(c, ['format']));
  if (!parsed.success) throw invalidParameter('format', 'must be csv or markdown');
  return parsed.data.format;
}

/** A file answer: CSV or Markdown, named for the download. */
function file(c: Context, format: 'csv' | 'markdown', name: string, body: string) {
  const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'text/markdown; charset=utf-8';
  const extension = format === 'csv' ? 'csv' : 'md';
  return c.body(body, 200, {
    ...NO_STORE,
    'Content-Type': type,
    'Content-Disposition': `attachment; filename="${name}.${extension}"`,
  });
}

/** The use cases' refusals, as the problems the browser is shown. */
function asProblem(error: unknown): never {
  if (error instanceof PolicyRejectedError) throw invalidBody(error.parameter, error.message);
  if (error instanceof PeriodTooLongError) throw invalidBody('period', error.message);
  if (error instanceof ReplayBusyError) {
    throw new HttpProblem(
      {
        type: PROBLEM_TYPES.replayBusy,
        title: 'A replay is already running',
        status: 429,
        detail: error.message,
        retryAfterSeconds: error.retryAfterSeconds,
      },
      { 'Retry-After': String(error.retryAfterSeconds) },
    );
  }
  if (error instanceof NoRecordedTrafficError) {
    throw new HttpProblem({
      type: PROBLEM_TYPES.noRecordedTraffic,
      title: 'No recorded traffic in this period',
      status: 422,
      detail: error.message,
    });
  }
  throw error;
}

/**
 * Whether `user` may see the limits of `connection`: only with a role there. Another connection's
 * policy is that account's contract with the vendor (its tier, the limits it was granted), so a
 * person without a role in it is not shown it in a list, nor can replay under it (403).
 */
const mayPlanIn = (user: RequestUser | undefined, connection: string): boolean =>
  user?.roles[connection] !== undefined;

/** `GET /policies`' answer, as `user` may see it. */
export function planningPolicies(
  deps: ReadinessDeps,
  user: RequestUser | undefined,
): PlanningPolicies {
  const inForceChoice = { kind: 'published', version: deps.inForce.policy } as const;
  const otherChoice = { kind: 'published', version: otherVersion(deps.inForce) } as const;
  const here = connectionOf(deps);
  return {
    connection: here,
    inForce: summaryOf(inForceChoice, rulesOf(inForceChoice, deps.inForce), deps.inForce),
    other: summaryOf(otherChoice, rulesOf(otherChoice, deps.inForce), deps.inForce),
    connections: deps.connections
      .filter((entry) => entry.name !== here.name && mayPlanIn(user, entry.name))
      .map((entry) => {
        const choice = { kind: 'connection', connection: entry.name } as const;
        const rules = rulesOf(choice, deps.inForce, deps.connections);
        return {
          name: entry.name,
          label: entry.label,
          policy: summaryOf(choice, rules, deps.inForce, deps.connections),
        };
      }),
    moduleRules: deps.inForce.moduleRules.map((rule) => {
      const [limit] = limitsOf([rule]);
      return {
        id: rule.id,
        name: limit?.name.replace(/ per (minute|hour)$/, '') ?? rule.id,
        kind: rule.kind,
        minute: rule.limits.find((window) => window.period === 'MINUTE')?.limit ?? null,
        hour: rule.limits.find((window) => window.period === 'HOUR')?.limit ?? null,
      };
    }),
    retentionDays: deps.retentionDays,
    periods: PlanningPeriodSchema.options.filter(
      (period) => period !== 'week' || deps.retentionDays >= 7,
    ),
    bounds: { minute: CUSTOM_LIMIT_BOUNDS.MINUTE, hour: CUSTOM_LIMIT_BOUNDS.HOUR },
  };
}

/** How the routes run replays: shared fairly by the gate, each run off the event loop. */
export interface PlanningReplays {
  readonly gate: ReplayGate<WhatIfResult>;
  readonly run: RunReplay;
}

export function planningRoutes(deps: ReadinessDeps & { readonly replays: PlanningReplays }) {
  return new Hono<AppEnv>()
    .get('/policies', (c) =>
      // The policies and the retention: no secret, no echo of the request, so compressed.
      jsonValueAnswer(c, planningPolicies(deps, c.get('user')), NO_STORE),
    )
    .post('/what-if', async (c) => {
      const format = formatOf(c);
      const parsed = WhatIfRequestSchema.safeParse(await readJson(c.req.raw));
      if (!parsed.success) throw firstIssue(parsed.error);
      const { policy } = parsed.data;
      if (policy.kind === 'connection') {
        // An unknown name is a 400 on the field (it is a typing error, as a bad limit is); a
        // known one the person has no role in, a 403 before anything is read.
        try {
          chosenConnection(policy, deps.connections);
        } catch (error) {
          asProblem(error);
        }
        if (!mayPlanIn(c.get('user'), policy.connection)) {
          throw new HttpProblem({
            type: PROBLEM_TYPES.forbidden,
            title: 'No role in that connection',
            status: 403,
            detail: `You have no role in the connection "${policy.connection}", so its limits are not shown to you. Ask a console administrator if you need them.`,
            parameter: 'policy.connection',
          });
        }
      }
      // The parsed request is in its canonical form (the schema's key order, unknown fields
      // refused), so equal requests have equal keys; the role is what the asker may see, so a
      // joined asker never receives a result computed for a wider view. The gate is the
      // replica's, shared by every connection, so the key names whose traffic is replayed.
      const key = JSON.stringify([
        deps.store.connection,
        c.get('user')?.roles[deps.store.connection] ?? null,
        parsed.data,
      ]);
      const result = await deps.replays.gate
        .run(key, c.req.raw.signal, (signal) => deps.replays.run(parsed.data, signal))
        .catch(asProblem);
      if (format === 'csv') return file(c, format, `what-if-${result.period}`, whatIfCsv(result));
      if (format === 'markdown') {
        return file(c, format, `what-if-${result.period}`, whatIfMarkdown(result));
      }
      return c.json(result, 200, NO_STORE);
    })
    .get('/migration', async (c) => {
      const parsed = MigrationQuerySchema.safeParse(strictQuery(c, ['period', 'format']));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalidParameter(
          String(issue?.path[0] ?? 'period'),
          issue?.path[0] === 'format' ? 'must be csv or markdown' : 'must be hour, day or week',
        );
      }
      const { period = 'week', format } = parsed.data;
      const report = await migrationReadiness(deps, period).catch(asProblem);
      if (format === 'csv') return file(c, format, `v4-readiness-${period}`, migrationCsv(report));
      if (format === 'markdown') {
        return file(c, format, `v4-readiness-${period}`, migrationMarkdown(report));
      }
      return c.json(report, 200, NO_STORE);
    });
}

const formats =
  '`format=csv` answers the same figures as CSV, `format=markdown` as a short report for the integrations’ owners.';

export const planningApi: ApiModule = {
  base: '/api/planning',
  scope: 'connection',
  tag: {
    name: 'Planning',
    description:
      'What would happen: one connection’s recorded traffic replayed under another rate-limit policy (another connection’s included), and how far that account has moved its data-subject calls to v4.',
  },
  operations: [
    {
      method: 'get',
      path: '/policies',
      operationId: 'getPlanningPolicies',
      summary: 'The policies a what-if can replay against, and the retention',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'The policies.', schema: PlanningPoliciesSchema } },
    },
    {
      method: 'post',
      path: '/what-if',
      operationId: 'replayWhatIf',
      summary: 'Replay the period’s recorded traffic against a policy, beside the one in force',
      description: `Requests are replayed a minute at a time (docs/planning.md). ${formats}`,
      access: { session: ANY_ROLE },
      query: FormatQuerySchema,
      body: WhatIfRequestSchema,
      responses: {
        200: {
          description: 'The replay under both policies.',
          schema: WhatIfResultSchema,
          alsoAs: [{ mediaType: 'text/csv' }, { mediaType: 'text/markdown' }],
        },
      },
      problems: {
        400: 'A limit of a custom policy is zero, negative, fractional or absurd (`parameter` names it), the policy names a connection this console does not serve (`policy.connection`), or the period is longer than the retention.',
        403: 'The policy is another connection’s, and the person has no role in that connection: its limits are not shown to them.',
        422: 'No request was recorded in the period: there is nothing to replay (`/problems/no-recorded-traffic`).',
        429: 'As many replays run as this replica allows (REPLAY_CONCURRENCY); `Retry-After` and `retryAfterSeconds` say when to try again (`/problems/replay-busy`). The same request while it runs is not refused: it gets that replay’s result.',
      },
    },
    {
      method: 'get',
      path: '/migration',
      operationId: 'getMigrationReadiness',
      summary: 'The v4 migration readiness report',
      description: `Every data-subject call of the period by operation and caller, with its v4 replacement. ${formats}`,
      access: { session: ANY_ROLE },
      query: MigrationQuerySchema,
      responses: {
        200: {
          description: 'The report.',
          schema: MigrationReportSchema,
          alsoAs: [{ mediaType: 'text/csv' }, { mediaType: 'text/markdown' }],
        },
      },
      problems: {
        400: 'The period is unknown or longer than the retention, or the format unknown.',
      },
    },
  ],
};
