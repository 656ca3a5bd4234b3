// Page `/c/{connection}/planning` (every role): what would happen under another rate-limit policy
// (another connection's included), replayed on that connection's recorded traffic, and how far its
// data-subject calls have moved to v4, beside the person's other connections. The tab and the
// period are in the URL.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { usePageConnectionName } from '../../../lib/connections-query';
import { PageHeader } from '../../../components/ui/page-header';
import { StatusPanel } from '../../../components/ui/status-panel';
import type { PlanningPeriod } from '../../../shared/planning';
import { planningPoliciesQueryOptions } from '../api/planning-api';
import {
  PLANNING_TABS,
  readPlanningView,
  writePlanningView,
  type PlanningTab,
  type PlanningView,
} from '../planning-url-state';
import { MigrationPanel } from './migration-panel';
import { WhatIfPanel } from './what-if-panel';
import './planning.css';

const TAB_LABELS: Readonly<Record<PlanningTab, string>> = {
  'what-if': 'What if: another policy',
  migration: 'v4 migration readiness',
};

export function PlanningPage() {
  const [params, setParams] = useSearchParams();
  const view = readPlanningView(params);
  const connection = usePageConnectionName();
  const policies = useQuery(planningPoliciesQueryOptions(connection));
  const go = (change: Partial<PlanningView>) =>
    setParams(writePlanningView({ ...view, ...change }), { replace: true });
  // A period longer than the retention is not offered; a link asking for one falls back.
  const allowed = policies.data?.periods ?? [];
  const period: PlanningPeriod = allowed.includes(view.period)
    ? view.period
    : (allowed.at(-1) ?? 'hour');

  const select = (tab: PlanningTab) => go({ tab });
  const onKey = (event: React.KeyboardEvent, tab: PlanningTab) => {
    const index = PLANNING_TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? PLANNING_TABS[(index + 1) % PLANNING_TABS.length]
        : event.key === 'ArrowLeft'
          ? PLANNING_TABS[(index + PLANNING_TABS.length - 1) % PLANNING_TABS.length]
          : undefined;
    if (!next) return;
    event.preventDefault();
    select(next);
    document.getElementById(`planning-tab-${next}`)?.focus();
  };

  return (
    <section className="page page-stack planning-page" aria-labelledby="planning-title">
      <PageHeader titleId="planning-title" title="Planning">
        What would happen: this connection’s recorded traffic replayed under another rate-limit
        policy, another connection’s included, and how far its data-subject calls have moved to v4.
      </PageHeader>
      <div role="tablist" aria-label="Planning" className="planning-tabs">
        {PLANNING_TABS.map((tab) => (
          <button
            key={tab}
            id={`planning-tab-${tab}`}
            type="button"
            role="tab"
            className="planning-tab"
            aria-selected={view.tab === tab}
            aria-controls={`planning-panel-${tab}`}
            tabIndex={view.tab === tab ? 0 : -1}
            onClick={() => select(tab)}
            onKeyDown={(event) => onKey(event, tab)}
          >
            {TAB_LABELS[tab]}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`planning-panel-${view.tab}`}
        aria-labelledby={`planning-tab-${view.tab}`}
      >
        {policies.isPending ? (
          <StatusPanel role="status" title="Loading the policies…" busy />
        ) : null}
        {policies.isError ? (
          <LoadErrorPanel title="The policies could not be loaded" query={policies} />
        ) : null}
        {policies.data && view.tab === 'what-if' ? (
          // Keyed by connection: a switch starts from that connection's policy, with no other
          // connection's replay left on screen.
          <WhatIfPanel
            key={connection}
            policies={policies.data}
            period={period}
            onPeriod={(value) => go({ period: value })}
          />
        ) : null}
        {policies.data && view.tab === 'migration' ? (
          <MigrationPanel
            key={connection}
            policies={policies.data}
            period={period}
            onPeriod={(value) => go({ period: value })}
          />
        ) : null}
      </div>
    </section>
  );
}
