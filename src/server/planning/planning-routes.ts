// The planning area's routes (docs/planning.md), mounted at /api/planning, for every signed-in
// role:
// - `GET /policies`: the policy in force, the other published version, the module rules a custom
//   policy may keep, the retention;
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
import type { AppEnv } from '../http/app-env';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import { firstIssue, invalidBody, readJson } from '../http/json-body';
import { HttpProblem, invalidParameter } from '../http/problem';
import { migrationReadiness, type ReadinessDeps } from './migration-readiness';
import { whatIfCsv, whatIfMarkdown } from '../../shared/what-if-report';
import { migrationCsv, migrationMarkdown } from './planning-exports';
import { limitsOf, otherVersion, PolicyRejectedError, rulesOf, summaryOf } from './policies';
import { ReplayBusyError, type ReplayGate } from './replay-gate';
import type { RunReplay } from './replay-runner';
import { NoRecordedTrafficError, PeriodTooLongError } from './what-if';
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

/** `GET /policies`' answer. */
export function planningPolicies(deps: ReadinessDeps): PlanningPolicies {
  const inForceChoice = { kind: 'published', version: deps.inForce.policy } as const;
  const otherChoice = { kind: 'published', version: otherVersion(deps.inForce) } as const;
  return {
    inForce: summaryOf(inForceChoice, rulesOf(inForceChoice, deps.inForce), deps.inForce),
    other: summaryOf(otherChoice, rulesOf(otherChoice, deps.inForce), deps.inForce),
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
      jsonValueAnswer(c, planningPolicies(deps), NO_STORE),
    )
    .post('/what-if', async (c) => {
      const format = formatOf(c);
      const parsed = WhatIfRequestSchema.safeParse(await readJson(c.req.raw));
      if (!parsed.success) throw firstIssue(parsed.error);
      // The parsed request is in its canonical form (the schema's key order, unknown fields
      // refused), so equal requests have equal keys; the role is what the asker may see, so a
      // joined asker never receives a result computed for a wider view.
      const key = JSON.stringify([c.get('user')?.role ?? null, parsed.data]);
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
  tag: {
    name: 'Planning',
    description:
      'What would happen: the account’s recorded traffic replayed under another rate-limit policy, and how far the account has moved its data-subject calls to v4.',
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
        400: 'A limit of a custom policy is zero, negative, fractional or absurd (`parameter` names it), or the period is longer than the retention.',
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
