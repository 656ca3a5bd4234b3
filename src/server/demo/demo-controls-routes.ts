// Demo mode's controls (docs/product.md §8): provoke an account block, a module quota 429, a 429
// without headers, a 500 or a slow answer in the built-in mock, then send one probe call through
// the governor so the result shows up as it would in real use. The mock is reached in-process;
// its /__mock routes are never exposed to the browser.
import { Hono } from 'hono';
import type { RecordChange } from '../http/admin-change';
import type { AppEnv } from '../http/app-env';
import * as z from 'zod/mini';
import { EVENT_TYPES_OPERATION } from '../../shared/event-types';
import {
  DEMO_SCENARIOS,
  DEMO_SCENARIO_IDS,
  DemoOutcomeSchema,
  type DemoOutcome,
  type DemoScenario,
} from '../../shared/demo-scenarios';
import type { BlocksEnded } from '../../shared/incident';
import { PROBLEM_TYPES } from '../../shared/problem';
import { OPERATORS, type ApiModule } from '../http/api-operation';
import type { Governor } from '../governor/governor';
import { HttpProblem } from '../http/problem';
import type { UpstreamClient } from '../upstream/upstream-client';

/** What the demo upstream offers (the mock's demo controls, handed over by index.ts). */
export interface DemoControlsPort {
  /** Arms `scenario` so the next upstream call meets it. */
  provoke(scenario: DemoScenario): void;
  /** Ends every block and drops armed faults in the mock. */
  reset(): void;
}

export interface DemoControlsRoutesDeps {
  readonly controls: DemoControlsPort;
  /** Records scenarios armed and blocks ended in the audit trail, before they happen. */
  readonly recordChange: RecordChange;
  readonly upstream: UpstreamClient;
  readonly governor: Governor;
  /** Where the end of the blocks is announced to open pages (the live stream). */
  readonly hub?: { publishBlocksEnded(notice: BlocksEnded): void };
  /** The clock (epoch ms). */
  readonly now?: () => number;
  /**
   * Gets an access token ahead of the scenario, so that the probe call itself, not a token
   * request it happens to need, meets what was armed.
   */
  readonly prepare?: () => Promise<unknown>;
}

const ProvokeSchema = z.object({ scenario: z.enum(DEMO_SCENARIO_IDS) });

/** `GET /`: the scenarios, by id. */
const ScenarioSchema = z.object({ label: z.string(), description: z.string() });
const ScenarioListSchema = z.object({
  scenarios: z.object(Object.fromEntries(DEMO_SCENARIO_IDS.map((id) => [id, ScenarioSchema]))),
});

/** Sends the probe call and says what it drew. */
async function probe(upstream: UpstreamClient): Promise<DemoOutcome['probe']> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    const response = await upstream.send(EVENT_TYPES_OPERATION);
    return {
      outcome: 'answered',
      status: response.status,
      durationMs: durationMs(),
      incidentKey: null,
    };
  } catch (error) {
    if (error instanceof HttpProblem && error.problem.status === 429) {
      const fromUpstream = error.problem.upstreamStatus === 429;
      return {
        outcome: fromUpstream ? 'answered' : 'refused',
        status: 429,
        durationMs: durationMs(),
        incidentKey: error.problem.incidentId ?? null,
      };
    }
    if (error instanceof HttpProblem && error.problem.upstreamStatus !== undefined) {
      return {
        outcome: 'answered',
        status: error.problem.upstreamStatus,
        durationMs: durationMs(),
        incidentKey: null,
      };
    }
    return { outcome: 'failed', status: null, durationMs: durationMs(), incidentKey: null };
  }
}

/**
 * The demo control routes, mounted at /api/demo-controls in demo mode only (admins and support:
 * support engineers investigate throttling, and the controls touch only the built-in mock):
 * - `GET /`: the scenarios;
 * - `POST /` with `{ "scenario" }`: arm it and probe; answers a DemoOutcome;
 * - `POST /reset`: end every block in the mock and in the governor, and say so on the live
 *   stream so open pages drop their banners and countdowns (204).
 */
export function demoControlsRoutes(deps: DemoControlsRoutesDeps) {
  return new Hono<AppEnv>()
    .get('/', (c) => c.json({ scenarios: DEMO_SCENARIOS }))
    .post('/', async (c) => {
      const parsed = ProvokeSchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) {
        throw new HttpProblem({
          type: PROBLEM_TYPES.invalidParameter,
          title: 'Invalid demo scenario',
          status: 400,
          detail: `scenario: must be one of ${DEMO_SCENARIO_IDS.join(', ')}`,
          parameter: 'scenario',
        });
      }
      const { scenario } = parsed.data;
      await deps.recordChange(c, {
        action: 'demo.scenario-armed',
        target: scenario,
        before: null,
        after: { scenario },
      });
      // A failure here (e.g. the account is blocked already) shows in the probe instead.
      await deps.prepare?.().catch(() => undefined);
      deps.controls.provoke(scenario);
      const outcome: DemoOutcome = { scenario, probe: await probe(deps.upstream) };
      return c.json(outcome);
    })
    .post('/reset', async (c) => {
      await deps.recordChange(c, {
        action: 'blocks.ended',
        target: null,
        before: {
          blocks: deps.governor.activeBlocks().map((block) => ({
            scope: block.scope,
            ruleId: block.ruleId,
            until: new Date(block.until).toISOString(),
          })),
        },
        after: { blocks: [] },
      });
      deps.controls.reset();
      // Demo mode only: the operator ended the mock's blocks, so the console may send again.
      const incidentKeys = deps.governor.clearBlocks();
      const at = new Date((deps.now ?? Date.now)()).toISOString();
      deps.hub?.publishBlocksEnded({ at, incidentKeys });
      return c.body(null, 204);
    });
}

/** These routes in the console's API description (api-description/). */
export const demoControlsApi: ApiModule = {
  base: '/api/demo-controls',
  scope: 'connection',
  tag: { name: 'Demo controls', description: 'Provoke limits in the built-in mock (demo mode).' },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listDemoScenarios',
      summary: 'What the demo controls can provoke',
      access: { session: OPERATORS },
      demoOnly: true,
      responses: { 200: { description: 'The scenarios.', schema: ScenarioListSchema } },
    },
    {
      method: 'post',
      path: '/',
      operationId: 'provokeDemoScenario',
      summary: 'Arm a scenario in the mock and send one probe call',
      access: { session: OPERATORS },
      demoOnly: true,
      body: ProvokeSchema,
      responses: { 200: { description: 'What the probe drew.', schema: DemoOutcomeSchema } },
      problems: { 400: 'Not a scenario id (`/problems/invalid-parameter`).' },
    },
    {
      method: 'post',
      path: '/reset',
      operationId: 'resetDemo',
      summary: 'End every block in the mock and the governor',
      access: { session: OPERATORS },
      demoOnly: true,
      responses: { 204: { description: 'Reset; open pages are told on the live stream.' } },
    },
  ],
};
