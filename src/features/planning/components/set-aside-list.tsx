// The reported minutes a planning figure left out as implausible (docs/account-wide-view.md):
// shown under the what-if and the readiness report alike, so a figure that ignores a flood says so.
import { formatCount, formatDateTime } from '../../../lib/format';
import { counted } from '../../../shared/counted';
import type { WhatIfResult } from '../../../shared/planning';

/** Minutes listed; the exports and the API list every one. */
const SHOWN = 10;

/**
 * The set-aside minutes under a heading; nothing when there are none. `leftOutOf` ends the
 * explanation ("both replays", "the readiness figures").
 */
export function SetAsideList({
  id,
  title,
  entries,
  leftOutOf,
}: {
  id: string;
  title: string;
  entries: WhatIfResult['setAside'];
  leftOutOf: string;
}) {
  if (entries.length === 0) return null;
  return (
    <section className="card what-if-set-aside" aria-labelledby={id}>
      <h3 id={id}>
        {title} ({entries.length})
      </h3>
      <p>
        In these minutes one integration reported as many requests as the whole account can send in
        a minute, or more (429s included). That cannot be its own traffic (a reporter’s error or a
        made-up report), so the console kept at most that many and left them out of {leftOutOf}.
      </p>
      <ul>
        {entries.slice(0, SHOWN).map((entry) => (
          <li key={`${entry.source}-${entry.minute}`}>
            {entry.name}, {formatDateTime(entry.minute)}: {counted(entry.reported, 'request')}{' '}
            reported
          </li>
        ))}
      </ul>
      {entries.length > SHOWN ? (
        <p className="muted">
          The first {SHOWN} of {formatCount(entries.length)} minutes.
        </p>
      ) : null}
    </section>
  );
}
