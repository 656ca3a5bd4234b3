// The frame of one connection's pages (`/c/{connection}/...`): the page shows only once the URL's
// connection is one of the person's; otherwise a page saying so, never another connection's data.
import { Link, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { LoadErrorPanel } from '../components/ui/load-error-panel';
import { connectionPagePath, useConnections } from '../lib/connections-query';

/** While the person's connections load, or why they could not. */
function ConnectionsLoading() {
  const connections = useConnections();
  return connections.isError ? (
    <LoadErrorPanel title="The console’s connections could not be loaded" query={connections} />
  ) : (
    <p className="muted">Loading…</p>
  );
}

/** The connection's pages, or why there are none. */
export function ConnectionGate() {
  const { connection = '' } = useParams();
  const connections = useConnections();
  if (connections.isPending || connections.isError) return <ConnectionsLoading />;
  if (connections.data.some((known) => known.name === connection)) return <Outlet />;
  // The list holds only the connections the person has a role in: one they have no role in and
  // one that does not exist read the same, so the page does not tell which names exist.
  return (
    <section className="page" aria-labelledby="no-connection-title">
      <h1 id="no-connection-title">No connection named “{connection}”</h1>
      <p>This console has no connection of that name, or you have no role in it.</p>
      {connections.data.length > 0 ? (
        <>
          <p>Your connections:</p>
          <ul>
            {connections.data.map((known) => (
              <li key={known.name}>
                <Link to={connectionPagePath(known.name, 'event-types')}>{known.label}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>You have no role in any connection; ask an administrator for one.</p>
      )}
    </section>
  );
}

/**
 * An address from before connections (`/event-types`, `/rate-limits`, `/`): the same page of the
 * person's first connection, with the query string, so bookmarked filters still apply. The route's
 * loader (router.tsx) sends the browser there before anything renders; this is what shows when it
 * could not: while the connections load again after an error, why they failed, or that there is none.
 */
export function OldPageRedirect({ page }: { page: string }) {
  const connections = useConnections();
  const { search } = useLocation();
  const first = connections.data?.[0];
  if (connections.isPending || connections.isError) return <ConnectionsLoading />;
  if (!first) return <p>You have no role in any connection; ask an administrator for one.</p>;
  return <Navigate to={`${connectionPagePath(first.name, page)}${search}`} replace />;
}
