// Builds the accountability report for a period: the figures the database counts, the newest
// administrative changes, and the chain's evidence (its last walk, its newest checkpoint) in one
// sentence a data-protection officer can quote.
import {
  CHANGES_SHOWN,
  type AccountabilityChange,
  type AccountabilityReport,
} from '../../../shared/accountability';
import type { StoredChange } from './admin-change-entry';
import type { AccountabilityStore } from './accountability-store';
import type { AuditEvidenceStore, AuditVerification } from './audit-evidence-store';
import type { AuditSearch } from './audit-search';
import { findCheckpoint } from './checkpoints';
import { utcText } from '../../../shared/utc-text';

/** What the report reads. */
export interface AccountabilityReportDeps {
  readonly figures: Pick<AccountabilityStore, 'figures'>;
  readonly search: Pick<AuditSearch, 'listChanges'>;
  readonly evidence: Pick<AuditEvidenceStore, 'lastVerification' | 'latestCheckpoint'>;
  readonly now: () => number;
}

/** A period in epoch ms, `since` included, `until` excluded. */
export interface PeriodMs {
  readonly since: number;
  readonly until: number;
}

/** A change as the report lists it: who, when, from where, what. */
export function changeSummary(change: StoredChange): AccountabilityChange {
  return {
    at: change.at,
    user: change.username,
    token: change.tokenName,
    address: change.address,
    action: change.action,
    target: change.target,
  };
}

/** The changes of the period, newest first: `listChanges` takes `until` inclusively. */
export function changesOf(
  search: Pick<AuditSearch, 'listChanges'>,
  period: PeriodMs,
  limit: number,
  cursor?: string,
) {
  return search.listChanges({
    since: period.since,
    until: period.until - 1,
    limit,
    ...(cursor === undefined ? {} : { cursor }),
  });
}

/** The evidence's state in one sentence, from the last walk and the newest checkpoint. */
export function evidenceSummary(
  verification: AuditVerification | null,
  coversPeriod: boolean,
  checkpoint: { seq: number; at: string } | null,
): string {
  // A walk over an empty trail (the start-up job's on a new console) proved nothing: the audit
  // page says "not yet" for it, and so does this sentence.
  const walk =
    verification === null || (verification.ok && verification.entries === 0)
      ? 'The chain has not been verified yet (run “verify now” on the audit page)'
      : !verification.ok
        ? `The last verification, ${utcText(verification.at)}, found the chain broken: ${verification.detail}`
        : coversPeriod
          ? `Verified intact on ${utcText(verification.at)} (${verification.entries} entries), after the period ended`
          : `Last verified intact on ${utcText(verification.at)}, before the period ended: entries written since are not verified yet`;
  const kept =
    checkpoint === null
      ? 'no signed checkpoint has been taken yet'
      : `newest signed checkpoint: entry ${checkpoint.seq}, ${utcText(checkpoint.at)}`;
  return `${walk}; ${kept}.`;
}

/** The report for `period`. */
export async function accountabilityReport(
  deps: AccountabilityReportDeps,
  period: PeriodMs,
): Promise<AccountabilityReport> {
  const [figures, shown, verification, checkpointLine] = await Promise.all([
    deps.figures.figures(period.since, period.until),
    changesOf(deps.search, period, CHANGES_SHOWN),
    deps.evidence.lastVerification(),
    deps.evidence.latestCheckpoint(),
  ]);
  const found = checkpointLine === null ? undefined : findCheckpoint(JSON.parse(checkpointLine));
  const latestCheckpoint = found ? { seq: found.seq, at: found.at } : null;
  // A walk made after the period's end went over every entry written in it.
  const coversPeriod = verification?.ok === true && Date.parse(verification.at) >= period.until;
  return {
    period: {
      since: new Date(period.since).toISOString(),
      until: new Date(period.until).toISOString(),
    },
    generatedAt: new Date(deps.now()).toISOString(),
    ...figures,
    changes: { ...figures.changes, items: shown.items.map(changeSummary) },
    evidence: {
      verification:
        verification === null
          ? null
          : {
              at: verification.at,
              ok: verification.ok,
              entries: verification.entries,
              detail: verification.detail,
            },
      coversPeriod,
      latestCheckpoint,
      summary: evidenceSummary(verification, coversPeriod, latestCheckpoint),
    },
  };
}
