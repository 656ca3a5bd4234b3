// Pages and their URLs. Each page is its own chunk, loaded when first visited.
import { createBrowserRouter, Navigate } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppLayout } from './layout';
import { NotFoundPage } from './not-found-page';

const router = createBrowserRouter([
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
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
