// Whether an incident's block was ended before its time (an operator ended every block, in demo
// mode). Such a block no longer stops anything, and the platform's count it carried was reset with
// it: the table says "Ended early", the chart stops shading it and the gauges forget its count.
import type { Incident } from '../../shared/incident';

/** The blocks the governor still honours, as of the server time `at`. */
export interface ActiveBlocks {
  readonly at: number;
  readonly keys: ReadonlySet<string>;
}

/** True when `incident`'s block would still run at `active.at` but the governor dropped it. */
export function endedEarly(incident: Incident, active: ActiveBlocks | undefined): boolean {
  if (active === undefined) return false;
  return (
    Date.parse(incident.blockedUntil) > active.at &&
    active.at > Date.parse(incident.lastSeen) &&
    !active.keys.has(incident.key)
  );
}

/**
 * The incidents as the chart and the gauges should read them: a block ended early shades nothing
 * past its last 429, and its `ot-request-made` no longer stands for the platform's count.
 */
export function withEndedBlocks(
  incidents: readonly Incident[],
  active: ActiveBlocks | undefined,
): Incident[] {
  return incidents.map((incident) =>
    endedEarly(incident, active)
      ? { ...incident, blockedUntil: incident.lastSeen, requestsMade: null }
      : incident,
  );
}
