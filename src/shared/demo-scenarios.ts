// What the demo controls can provoke in the built-in mock upstream, and the shape of their answer:
// the BFF's demo-controls route, the mock and the rate-limits page share these.
import * as z from 'zod/mini';

/** What the demo controls can provoke in the built-in mock upstream. */
export const DEMO_SCENARIOS = {
  'account-minute': {
    label: 'Account minute block',
    description: 'Other clients use up the account’s minute quota; the next call draws a 429.',
  },
  'account-hour': {
    label: 'Account hour block',
    description: 'Other clients use up the account’s hour quota; the account is blocked.',
  },
  'module-quota': {
    label: '1,000-a-minute 429',
    description:
      'A 429 stating 1,000 requests per minute on the event-types call: the newer published per-endpoint limit, which the default policy does not have.',
  },
  'missing-headers': {
    label: '429 without headers',
    description: 'A 429 with none of the rate-limit headers; recorded and flagged.',
  },
  'server-error': {
    label: 'Upstream 500',
    description: 'The next call fails with 500 Internal Server Error.',
  },
  'slow-upstream': {
    label: 'Slow upstream',
    description: 'The next call is answered after 3 seconds.',
  },
} as const;
export type DemoScenario = keyof typeof DEMO_SCENARIOS;
export const DEMO_SCENARIO_IDS = Object.keys(DEMO_SCENARIOS) as [DemoScenario, ...DemoScenario[]];

/** `POST /api/demo-controls` answer: what was provoked and what the probe call drew. */
export const DemoOutcomeSchema = z.object({
  scenario: z.enum(DEMO_SCENARIO_IDS),
  probe: z.object({
    /** `answered`: the upstream answered; `refused`: the governor kept the call; `failed`: no answer. */
    outcome: z.enum(['answered', 'refused', 'failed']),
    status: z.nullable(z.int()),
    durationMs: z.int(),
    incidentKey: z.nullable(z.string()),
  }),
});
export type DemoOutcome = z.infer<typeof DemoOutcomeSchema>;
