// The planning page of one connection: it asks that connection's API, offers the person's other
// connections' policies in force, says whose traffic was replayed under whose policy, and shows
// every connection's share of v4 calls side by side.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type {
  MigrationReport,
  PolicySummary,
  ReplayOutcome,
  WhatIfResult,
} from '../../../shared/planning';
import {
  jsonAnswer,
  renderRoute,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import { policies } from '../test-support/policies';
import { PlanningPage } from './planning-page';

// The chart draws on a canvas jsdom does not have.
vi.mock('./replay-chart', () => ({ default: () => null }));

const CONNECTIONS = [
  { name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' },
  { name: 'uat', label: 'UAT', colour: 'green', role: 'support' },
];
const AT = '2026-11-25T16:02:00.000Z';

const outcome = (policy: PolicySummary, refused: number): ReplayOutcome => ({
  policy,
  refused,
  refusedWhileBlocked: 0,
  minutesOver: refused > 0 ? 1 : 0,
  minutesSlowed: 0,
  firstBreach: null,
  breaches: [],
  breachesTotal: 0,
  bySource: [],
  headroom: null,
});

const uatPolicy = policies.connections[0]!.policy;
const result: WhatIfResult = {
  runId: 'run-1',
  connection: { name: 'default', label: 'Production (EU)' },
  period: 'week',
  from: AT,
  to: AT,
  bucketMinutes: 60,
  requests: 95,
  activeMinutes: 4,
  busiestMinute: { minute: AT, requests: 40 },
  inForce: outcome(policies.inForce, 10),
  chosen: outcome(uatPolicy, 49),
  buckets: [],
  setAside: [],
  recorded429s: { total: 0, byEndpoint: [] },
  generatedAt: AT,
};

const report = (
  connection: { name: string; label: string },
  calls: number,
  v4Calls: number,
): MigrationReport => ({
  connection,
  period: 'week',
  from: AT,
  to: AT,
  dataSubjectCalls: calls,
  v4Calls,
  readiness: v4Calls / calls,
  bySource: [],
  trend: [],
  legacy: [],
  v4: [],
  setAside: [],
  generatedAt: AT,
});

const sent: Array<{ url: string; body: unknown }> = [];
stubApiPerTest((url, init) => {
  sent.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  if (url === '/api/connections') return jsonAnswer({ connections: CONNECTIONS });
  if (url === '/api/connections/default/planning/policies') return jsonAnswer(policies);
  if (url === '/api/connections/default/planning/what-if') return jsonAnswer(result);
  if (url === '/api/connections/default/planning/migration?period=week') {
    return jsonAnswer(report(CONNECTIONS[0]!, 100, 12));
  }
  if (url === '/api/connections/uat/planning/migration?period=week') {
    return jsonAnswer(report(CONNECTIONS[1]!, 50, 40));
  }
  return undefined;
});

describe('the planning page of a connection', () => {
  it("replays production's traffic under UAT's policy, picked from the person's connections", async () => {
    sent.length = 0;
    const { user } = renderRoute(
      'c/:connection/planning',
      <PlanningPage />,
      '/c/default/planning?period=week',
    );
    await user.click(await screen.findByRole('radio', { name: /^UAT’s policy in force/ }));
    await user.click(screen.getByRole('button', { name: 'Replay' }));

    expect(
      await screen.findByRole('heading', {
        name: `Production (EU)’s traffic under ${uatPolicy.label}`,
      }),
    ).toBeInTheDocument();
    expect(sent.find((request) => request.url.endsWith('/what-if'))).toEqual({
      url: '/api/connections/default/planning/what-if',
      body: { policy: { kind: 'connection', connection: 'uat' }, period: 'week' },
    });
    expect(
      screen.getByRole('region', { name: /^Under Production \(EU\)’s policy in force/ }),
    ).toHaveTextContent('10 requests refused');
    expect(screen.getByRole('region', { name: /^Under the policy chosen/ })).toHaveTextContent(
      '49 requests refused',
    );
    expect(sent.every((request) => !request.url.startsWith('/api/planning'))).toBe(true);
  });

  it("shows each of the person's connections' share of v4 calls side by side", async () => {
    renderRoute(
      'c/:connection/planning',
      <PlanningPage />,
      '/c/default/planning?tab=migration&period=week',
    );
    const table = within(
      await screen.findByRole('region', { name: 'Your connections compared' }),
    ).getByRole('table');
    expect(await within(table).findByRole('row', { name: /^UAT 80 %/ })).toHaveTextContent(
      'UAT80 %1050',
    );
    expect(within(table).getByRole('row', { name: /^Production \(EU\)/ })).toHaveTextContent(
      'Production (EU) (this page)12 %88100',
    );
    expect(within(table).getByRole('link', { name: 'UAT' })).toHaveAttribute(
      'href',
      '/c/uat/planning?tab=migration&period=week',
    );
  });
});
