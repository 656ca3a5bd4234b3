// The frame around every page: product name, navigation, the signed-in user, and the page itself.
// It is also the route guard: a signed-out visitor is sent to sign in and brought back afterwards.
// The frame itself reads no location: only the small parts that depend on it (the tab's title,
// the busy mark on the page, the links' current marks) do, so a change of the URL's query (a
// ticked filter on the event types) re-renders the page, not the header and banners around it.
import { Suspense, useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { BrandMark } from '../components/ui/brand-mark';
import { LoadErrorPanel } from '../components/ui/load-error-panel';
import { useSession } from '../lib/session-query';
import { UserBadge } from '../features/session/components/user-badge';
import { IdleSignOut } from '../features/session/components/idle-sign-out';
import { signInPath } from '../features/session/return-to';
import { endedBySigningOut } from '../features/session/session-end';
import { useSignedOutHandler } from '../features/session/use-signed-out-handler';
import { AccountBlockBanner } from '../features/rate-limits/components/account-block-banner';
import { ConsoleHealthBanner } from '../features/rate-limits/components/console-health-banner';
import { EarlyWarningBanner } from '../features/alerts/components/early-warning-banner';
import { eventTypesQueryKeys } from '../features/event-types/api/get-event-types';
import { useIncidentSignals } from '../features/rate-limits/incident-stream';
import { connectionOfPage, connectionPagePath, useConnections } from '../lib/connections-query';
import type { Role } from '../shared/session';
import { ConnectionSwitcher } from './connection-switcher';
import { documentTitleFor, navigationFor } from './navigation';

export function AppLayout() {
  const session = useSession();
  useSignedOutHandler();

  if (session.isPending) return <p className="app-loading">Loading the console…</p>;
  if (session.isError) {
    return (
      <main id="main" className="app-main">
        <LoadErrorPanel
          title="The console server could not be reached"
          detail="Check your connection, then try again."
          query={session}
        />
      </main>
    );
  }
  if (!session.data) return <SignInRedirect />;

  return (
    <div className="app-shell">
      <DocumentTitle />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <BrandMark className="app-brand" size={24} />
        <MainNavigation role={session.data.role} />
        <ConnectionSwitcher />
        <UserBadge session={session.data} />
      </header>
      <IdleSignOut idleSeconds={session.data.idleSeconds} />
      {/* Signed in only: the live stream answers 401 before, and a first visit must not see it. */}
      <RetryWhenBlocksEnd />
      {/* While the platform blocks the whole account, every page says so. */}
      <AccountBlockBanner />
      {/* And while the console itself is degraded (its store away, limits not shared). */}
      <ConsoleHealthBanner />
      {/* And while a limit is near its end, or will run out at the current rate. */}
      <EarlyWarningBanner />
      <MainArea>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Outlet />
        </Suspense>
      </MainArea>
    </div>
  );
}

/**
 * The pages `role` may use; a connection's pages link to the current connection's (the first's
 * from a console-wide page), so moving between them never changes connection.
 */
function MainNavigation({ role }: { role: Role | undefined }) {
  const named = connectionOfPage(useLocation().pathname);
  const connections = useConnections().data;
  // An unknown connection's page links to the person's first, not to more pages of nothing.
  const current =
    connections?.find(({ name }) => name === named) ?? (connections ? connections[0] : undefined);
  const connection = current?.name;
  return (
    <nav aria-label="Main" className="app-nav">
      {/* A connection's admin pages are offered by the role in the connection the links lead to. */}
      {navigationFor(role, current ? current.role : role).map((entry) => (
        <NavLink
          key={entry.to}
          to={
            entry.scope === 'connection' && connection
              ? connectionPagePath(connection, entry.to.slice(1))
              : entry.to
          }
          title={entry.description}
        >
          {entry.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The page, marked busy while the router loads the next one. */
function MainArea({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  return (
    <main id="main" className="app-main" aria-busy={navigation.state === 'loading'}>
      {children}
    </main>
  );
}

/** Keeps the tab's title on the current page's. */
function DocumentTitle(): null {
  const { pathname } = useLocation();
  useDocumentTitle(pathname === '/' ? '/event-types' : pathname);
  return null;
}

/** Sends a signed-out visitor to sign in, to come back here afterwards. */
function SignInRedirect() {
  const location = useLocation();
  // After a sign-out the return address is dropped: the next person must not land on this page.
  return <Navigate to={endedBySigningOut() ? '/sign-in' : signInPath(location)} replace />;
}

/** Sets the tab's title for the page at `pathname` (see documentTitleFor). */
export function useDocumentTitle(pathname: string): void {
  useEffect(() => {
    document.title = documentTitleFor(pathname);
  }, [pathname]);
}

/**
 * When blocks end early (pushed on the live stream), whatever a block held up is asked for again
 * at once: failed queries, and the event-types list that may be showing its last good copy.
 */
function RetryWhenBlocksEnd(): null {
  const queryClient = useQueryClient();
  useIncidentSignals((signal) => {
    if (signal.type !== 'blocks-ended') return;
    void queryClient.refetchQueries({
      type: 'active',
      predicate: (query) => query.state.status === 'error',
    });
    void queryClient.invalidateQueries({ queryKey: eventTypesQueryKeys.all });
  });
  return null;
}
