// The Planning page's view as URL search params, so a tab and a period are a link to share:
// anything unknown is dropped, never an error.
import { PLANNING_PERIODS, type PlanningPeriod } from '../../shared/planning';

export const PLANNING_TABS = ['what-if', 'migration'] as const;
export type PlanningTab = (typeof PLANNING_TABS)[number];

export interface PlanningView {
  readonly tab: PlanningTab;
  readonly period: PlanningPeriod;
}

/** The view `params` describe; defaults: the what-if over the last 24 hours. */
export function readPlanningView(params: URLSearchParams): PlanningView {
  const tab = params.get('tab');
  const period = params.get('period');
  return {
    tab: PLANNING_TABS.includes(tab as PlanningTab) ? (tab as PlanningTab) : 'what-if',
    period: period !== null && period in PLANNING_PERIODS ? (period as PlanningPeriod) : 'day',
  };
}

/** The search params of `view`, defaults left out. */
export function writePlanningView(view: PlanningView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.tab !== 'what-if') params.set('tab', view.tab);
  if (view.period !== 'day') params.set('period', view.period);
  return params;
}
