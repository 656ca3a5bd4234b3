// Pages and their URLs. Each page is its own chunk, loaded when first visited. A page whose data
// does not depend on what the user does first starts its query in the route's loader, which the
// router runs beside the chunk's download: the list is on its way before the page's code is.
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, replace, type LoaderFunctionArgs, type Params } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { eventTypesQueryOptions } from '../features/event-types/api/get-event-types';
import { accountUsagePath } from '../features/rate-limits/api/first-paths';
import {
  rateLimitKeys,
  rulesQueryOptions,
  usageQueryOptions,
} from '../features/rate-limits/api/rate-limits-api';
import { sendEarly } from '../lib/api-client';
import { consoleMetaQueryOptions } from '../lib/console-meta-query';
import { sessionQueryOptions, useSession } from '../lib/session-query';
import {
  connectionPagePath,
  connectionsQueryOptions,
  usePageConnection,
} from '../lib/connections-query';
import { CONNECTION_NAME_PATTERN } from '../shared/connections';
import { ConnectionGate, OldPageRedirect } from './connection-gate';
import { useSignOutHere } from '../features/session/api/session';
import { RequireRole } from '../features/session/components/require-role';
import { AppLayout, useDocumentTitle } from './layout';
import { NotFoundPage } from './not-found-page';
import { AUDIT_TRAIL_ROLES, type Role } from '../shared/session';

/** `Page` for admins (or `roles`); other roles read `reason` (what the page holds) instead. */
function adminOnly(
  Page: ComponentType,
  reason: string,
  roles: readonly Role[] = ['admin'],
): ComponentType {
  return function AdminOnlyPage() {
    return (
      <RequireRole roles={roles} reason={reason}>
        <Page />
      </RequireRole>
    );
  };
}

/**
 * `Page` of one connection for its admins: the person's role in the URL's connection decides (the
 * gate above has checked it is one of theirs), as it does in the BFF.
 */
function connectionAdminOnly(Page: ComponentType, reason: string): ComponentType {
  return function ConnectionAdminOnlyPage() {
    const connection = usePageConnection();
    if (!connection) return null;
    return (
      <RequireRole roles={['admin']} reason={reason} connection={connection}>
        <Page />
      </RequireRole>
    );
  };
}

/** `Page` with the sign-in document title (it is outside the app frame that sets the others). */
function signInTitled(Page: ComponentType): ComponentType {
  return function TitledSignInPage() {
    useDocumentTitle('/sign-in');
    return <Page />;
  };
}

type AppRouterInstance = ReturnType<typeof createBrowserRouter>;

/** Shown while the first page's chunk loads on a cold start. */
const LOADING_CONSOLE = <p className="app-loading">Loading the console…</p>;

/**
 * A route's loader that starts a query (`prefetch`) and does not wait for it: the page shows its
 * own loading state, and a query already fresh in the cache is not asked again.
 */
function startQuery(prefetch: (params: Params) => Promise<void>) {
  return {
    loader: ({ params }: { params: Params }) => {
      void prefetch(params);
      return null;
    },
    // The query keeps itself fresh: running the loader again on every navigation (a facet ticked
    // changes the URL) would only turn each of those into an asynchronous navigation.
    shouldRevalidate: () => false,
  };
}

/**
 * The connection a page's URL names when it may be one (the gate checks it is the person's), for
 * a loader to start that connection's queries beside the list of connections.
 */
function namedConnection(params: Params): string | undefined {
  const name = params.connection;
  return name !== undefined && CONNECTION_NAME_PATTERN.test(name) ? name : undefined;
}

/** Whether someone is signed in; asked before a loader sends what would answer 401 otherwise. */
async function signedIn(client: QueryClient): Promise<boolean> {
  return (await client.fetchQuery(sessionQueryOptions()).catch(() => null)) != null;
}

/** The event-types page's code; its route and the old addresses leading to it load it. */
const loadEventTypesPage = () => import('../features/event-types/components/event-types-page');
/** The rate-limits page's code, likewise. */
const loadRateLimitsPage = () => import('../features/rate-limits/components/rate-limits-page');
/** The planning page's code, likewise. */
const loadPlanningPage = () => import('../features/planning/components/planning-page');

/** What a connection's page asks for as it opens: the session is known to be signed in. */
type StartPageData = (client: QueryClient, connection: string) => Promise<unknown>;

/** The event-types list of `connection`. */
const startEventTypes: StartPageData = (client, connection) =>
  client.prefetchQuery(eventTypesQueryOptions(connection));

/**
 * What places the rate-limits page's sections (bench/findings/lighthouse.md). The limits', the
 * usage's and the meta data's fetchers are in the entry already (the frame's banners use them);
 * the account-wide view's is in a chunk of the page's own with its schemas, so its request goes
 * out now, by path, and the fetcher takes the answer over once loaded: waiting for that chunk
 * first put its download and evaluation before the request on a cold load.
 */
const startRateLimits: StartPageData = async (client, connection) => {
  if (client.getQueryState(rateLimitKeys.accountUsage(connection)) === undefined) {
    sendEarly([accountUsagePath(connection)]);
  }
  await Promise.all([
    client.prefetchQuery(consoleMetaQueryOptions()),
    client.prefetchQuery(rulesQueryOptions(connection)),
    client.prefetchQuery(usageQueryOptions(connection)),
    import('../features/rate-limits/api/account-usage-api').then(({ accountUsageQueryOptions }) =>
      client.prefetchQuery(accountUsageQueryOptions(connection)),
    ),
  ]);
};

/**
 * The pages whose code (and data) start as they open, by their name in the URL. Planning's largest
 * paint is its header's description, drawn as soon as its code is there: loaded beside the
 * connections, not after them, it no longer waits for their round trip on an old address.
 */
const STARTED_PAGES: Readonly<
  Record<string, { load: () => Promise<unknown>; startData?: StartPageData }>
> = {
  'event-types': { load: loadEventTypesPage, startData: startEventTypes },
  'rate-limits': { load: loadRateLimitsPage, startData: startRateLimits },
  planning: { load: loadPlanningPage },
};

export function createAppRouter(client: QueryClient): AppRouterInstance {
  /** The person's connections, asked for beside the page's chunk (after the session). */
  const startConnections = () =>
    startQuery(async () => {
      if (await signedIn(client)) await client.prefetchQuery(connectionsQueryOptions());
    });

  /**
   * An address from before connections leads to `page` of the person's first connection, known
   * once the connections answer. The loader sends the browser there itself, with the page's code
   * and data started: redirecting from a rendered page (OldPageRedirect) waited for the frame's
   * first render, and the page's code and list then loaded one after the other behind it (about a
   * third of a second of the first rows' time; bench/findings/table.md). Signed out, or without
   * connections, the page renders instead and says why (or the frame sends the visitor to sign in).
   */
  const leadOldAddress = (page: string) => ({
    loader: async ({ request }: LoaderFunctionArgs) => {
      if (!(await signedIn(client))) return null;
      const started = STARTED_PAGES[page];
      // The page's code needs no session, but a signed-out visitor is sent to sign in instead.
      void started?.load().catch(() => undefined);
      const connections = await client.fetchQuery(connectionsQueryOptions()).catch(() => []);
      const first = connections[0]?.name;
      if (first === undefined) return null;
      void started?.startData?.(client, first);
      // Replacing the old address, as OldPageRedirect does: Back leaves the console.
      return replace(`${connectionPagePath(first, page)}${new URL(request.url).search}`);
    },
    shouldRevalidate: () => false,
  });

  return createBrowserRouter([
    {
      // Outside the app frame: a signed-out visitor sees no navigation.
      path: 'sign-in',
      hydrateFallbackElement: LOADING_CONSOLE,
      lazy: async () => ({
        Component: signInTitled(
          (await import('../features/session/components/sign-in-page')).SignInPage,
        ),
      }),
    },
    {
      element: <AppLayout />,
      // The frame waits for the session before it shows any page: ask for it at once.
      ...startQuery(() => client.prefetchQuery(sessionQueryOptions())),
      hydrateFallbackElement: LOADING_CONSOLE,
      children: [
        // Addresses from before connections: the same page of the person's first connection.
        {
          index: true,
          element: <OldPageRedirect page="event-types" />,
          ...leadOldAddress('event-types'),
        },
        {
          path: 'event-types',
          element: <OldPageRedirect page="event-types" />,
          ...leadOldAddress('event-types'),
        },
        {
          path: 'rate-limits',
          element: <OldPageRedirect page="rate-limits" />,
          ...leadOldAddress('rate-limits'),
        },
        {
          path: 'planning',
          element: <OldPageRedirect page="planning" />,
          ...leadOldAddress('planning'),
        },
        {
          path: 'integrations',
          element: <OldPageRedirect page="integrations" />,
          ...leadOldAddress('integrations'),
        },
        {
          path: 'data-subjects',
          element: <OldPageRedirect page="data-subjects" />,
          ...leadOldAddress('data-subjects'),
        },
        {
          // One connection's pages; the gate shows them only for one of the person's connections.
          path: 'c/:connection',
          element: <ConnectionGate />,
          ...startConnections(),
          children: [
            {
              path: 'event-types',
              // After the session: signed out, the list's 401 would be logged as an error.
              ...startQuery(async (params) => {
                const connection = namedConnection(params);
                if (connection && (await signedIn(client))) {
                  await startEventTypes(client, connection);
                }
              }),
              lazy: async () => ({ Component: (await loadEventTypesPage()).EventTypesPage }),
            },
            {
              path: 'rate-limits',
              ...startQuery(async (params) => {
                const connection = namedConnection(params);
                if (connection && (await signedIn(client))) {
                  await startRateLimits(client, connection);
                }
              }),
              lazy: async () => ({ Component: (await loadRateLimitsPage()).RateLimitsPage }),
            },
            // What would happen: every role (the what-if and the readiness report hold no
            // personal data).
            {
              path: 'planning',
              lazy: async () => ({ Component: (await loadPlanningPage()).PlanningPage }),
            },
            {
              path: 'integrations',
              lazy: async () => {
                const { IntegrationsPage } =
                  await import('../features/integrations/components/integrations-page');
                return {
                  Component: connectionAdminOnly(
                    IntegrationsPage,
                    'This page registers the connection’s integrations and issues their reporting keys, which only its administrators manage.',
                  ),
                };
              },
            },
            // Personal data: the connection's admins only (the BFF answers 403 to others; this
            // says why). No loader: the page asks for the catalog once the role allows it.
            {
              path: 'data-subjects',
              lazy: async () => ({
                Component: connectionAdminOnly(
                  (await import('../features/data-subjects/components/data-subjects-page'))
                    .DataSubjectsPage,
                  'This page looks up data subjects: it shows personal data.',
                ),
              }),
            },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
        // Early warning and alert destinations: every role reads, admins change (the BFF enforces).
        {
          path: 'alerts',
          lazy: async () => ({
            Component: (await import('../features/alerts/components/alerts-page')).AlertsPage,
          }),
        },
        {
          path: 'audit',
          lazy: async () => ({
            Component: adminOnly(
              (await import('../features/audit-trail/components/audit-trail-page')).AuditTrailPage,
              'This page lists who looked up which data subject: it shows personal data.',
              AUDIT_TRAIL_ROLES,
            ),
          }),
        },
        // What a data-protection officer answers a regulator: admins and auditors.
        {
          path: 'accountability',
          lazy: async () => ({
            Component: adminOnly(
              (await import('../features/accountability/components/accountability-page'))
                .AccountabilityPage,
              'This page reports who looked up personal data and why, for the data-protection officer.',
              AUDIT_TRAIL_ROLES,
            ),
          }),
        },
        // Where one is signed in: every role (admins see everyone's; the BFF decides).
        {
          path: 'sessions',
          lazy: async () => {
            const { SessionsPage } = await import('../features/sessions/components/sessions-page');
            const { UnlockSignIn } = await import('../features/session/components/unlock-sign-in');
            // Sign-ins are managed here, so an admin unlocks a user's sign-in below the sessions.
            return {
              Component: function SessionsRoute() {
                const admin = useSession().data?.role === 'admin';
                return (
                  <SessionsPage signOutHere={useSignOutHere()}>
                    {admin ? <UnlockSignIn /> : null}
                  </SessionsPage>
                );
              },
            };
          },
        },
        // Tokens for scripts: every role makes its own (the BFF caps their role).
        {
          path: 'tokens',
          lazy: async () => ({
            Component: (await import('../features/tokens/components/tokens-page')).TokensPage,
          }),
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}

/**
 * Router updates are plain React updates, not transitions: a transition's render yields to the
 * browser every few milliseconds, and on the first load (the page's module arrived, the frame and
 * the table render at once) those yields left the main thread idle for a fifth to two fifths of
 * the render on a 2-core machine, so the first rows came about 40 ms later (median of 40
 * alternating loads). Pages do not suspend on navigation (modules load before the router
 * commits), so nothing is lost by not keeping the old page during the render.
 */
export function AppRouter({ router }: { router: AppRouterInstance }) {
  return <RouterProvider router={router} useTransitions={false} />;
}
