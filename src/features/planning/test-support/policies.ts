// What `GET /api/planning/policies` answers for the planning page's tests: Production (EU)'s
// account-and-module limits in force (the account's two and the v2 quota), UAT's policy offered,
// two module rules, a week's retention.
import type { PlanningPolicies } from '../../../shared/planning';

export const policies: PlanningPolicies = {
  connection: { name: 'default', label: 'Production (EU)' },
  inForce: {
    label: 'Published: account and module limits (in force)',
    choice: { kind: 'published', version: 'account-and-module' },
    limits: [
      {
        ruleId: 'account-minute',
        name: 'Account minute limit',
        scope: 'account',
        period: 'MINUTE',
        limit: 20_000,
        kind: 'hard',
        blocks: 'account',
        blockSeconds: 60,
      },
      {
        ruleId: 'account-hour',
        name: 'Account hour limit',
        scope: 'account',
        period: 'HOUR',
        limit: 200_000,
        kind: 'hard',
        blocks: 'account',
        blockSeconds: 3_600,
      },
      {
        ruleId: 'v2-datasubjects-quota',
        name: 'v2 data-subjects quota per minute',
        scope: 'module',
        period: 'MINUTE',
        limit: 300,
        kind: 'hard',
        blocks: 'rule',
        blockSeconds: 60,
      },
    ],
  },
  other: {
    label: 'Published: per-endpoint limits',
    choice: { kind: 'published', version: 'per-endpoint' },
    limits: [],
  },
  connections: [
    {
      name: 'uat',
      label: 'UAT',
      policy: {
        label: 'UAT’s policy in force (Published: account and module limits, sandbox tier)',
        choice: { kind: 'connection', connection: 'uat' },
        limits: [],
      },
    },
  ],
  moduleRules: [
    {
      id: 'v2-datasubjects-quota',
      name: 'v2 data-subjects quota',
      kind: 'hard',
      minute: 300,
      hour: 18_000,
    },
    {
      id: 'scim-quota',
      name: 'User provisioning quota',
      kind: 'hard',
      minute: 2_000,
      hour: 20_000,
    },
  ],
  retentionDays: 7,
  periods: ['hour', 'day', 'week'],
  bounds: { minute: { min: 1, max: 1_000_000 }, hour: { min: 1, max: 60_000_000 } },
};
