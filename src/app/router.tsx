// Pages and their URLs. Each page is its own chunk, loaded when first visited.
import { createBrowserRouter, Navigate } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppLayout } from './layout';
import { NotFoundPage } from './not-found-page';

const router = createBrowserRouter([
  {
    // Outside the app frame: a signed-out visitor sees no navigation.
    path: 'sign-in',
    hydrateFallbackElement: <p className="app-loading">Loading the console…</p>,
    lazy: async () => ({
      Component: (await import('../features/session/components/sign-in-page')).SignInPage,
    }),
  },
  {
    element: <AppLayout />,
    // Shown while the first page's chunk loads on a cold start.
    hydrateFallbackElement: <p className="app-loading">Loading the console…</p>,
    children: [
      { index: true, element: <Navigate to="/event-types" replace /> },
      {
        path: 'event-types',
        lazy: async () => ({
          Component: (await import('../features/event-types/components/event-types-page'))
            .EventTypesPage,
        }),
      },
      {
        path: 'rate-limits',
        lazy: async () => ({
          Component: (await import('../features/rate-limits/components/rate-limits-page'))
            .RateLimitsPage,
        }),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
