// The header's connection: on a connection's page its label in its colour and a select that opens
// the same page of another connection in one step; on a console-wide page that still reaches the
// first connection's platform, a note saying which; on a truly console-wide page nothing.
import { useLocation, useNavigate } from 'react-router';
import {
  connectionOfPage,
  connectionPagePath,
  pageOfConnectionPath,
  useConnections,
} from '../lib/connections-query';
import type { ConnectionSummary } from '../shared/connections';
import { servesFirstConnection } from './navigation';
import './connection-switcher.css';

/** A connection's label on its colour (connection-switcher.css pairs each with its text). */
function ConnectionBadge({
  connection,
  prefix,
}: {
  connection: ConnectionSummary;
  prefix?: string;
}) {
  return (
    <span className="connection-badge" data-colour={connection.colour}>
      {prefix}
      {connection.label}
    </span>
  );
}

/**
 * The query string kept when switching: every filter of the page, but not a highlighted incident
 * (its key belongs to the connection it happened in).
 */
export function searchKeptOnSwitch(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('incident');
  const kept = params.toString();
  return kept ? `?${kept}` : '';
}

/** The header's connection part; nothing while the list loads. */
export function ConnectionSwitcher() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const connections = useConnections().data;
  if (!connections || connections.length === 0) return null;
  const named = connectionOfPage(pathname);
  const page = pageOfConnectionPath(pathname);
  const current = connections.find((connection) => connection.name === named);
  if (named === undefined) {
    // Until these pages name their connection, say whose data they show, never another's badge.
    const first = connections[0]!;
    return servesFirstConnection(pathname) ? (
      <div className="connection-switcher">
        <ConnectionBadge connection={first} prefix="Serves " />
      </div>
    ) : null;
  }
  // An unknown connection's page says so itself; the header offers the person's connections.
  // With more than one, the switcher is the badge itself (its label in its colour): one control,
  // not the same name twice side by side.
  return (
    <div className="connection-switcher">
      {current && connections.length === 1 ? <ConnectionBadge connection={current} /> : null}
      {connections.length > 1 || !current ? (
        <select
          aria-label="Connection"
          className="connection-select"
          data-colour={current?.colour}
          value={current?.name ?? ''}
          onChange={(event) =>
            void navigate(
              `${connectionPagePath(event.target.value, page ?? 'event-types')}${searchKeptOnSwitch(search)}`,
            )
          }
        >
          {current ? null : <option value="">Choose a connection</option>}
          {connections.map((connection) => (
            <option key={connection.name} value={connection.name}>
              {connection.label}
            </option>
          ))}
        </select>
      ) : null}
    </div>
  );
}
