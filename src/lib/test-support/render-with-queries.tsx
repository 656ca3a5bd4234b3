// Test set-up for components that read server state: a fresh query client without retries, the
// BFF stubbed with one JSON answer, and a marker that appears once a query has its answer, so a
// test can wait on the fetch before asserting that something is absent.
import {
  QueryClient,
  QueryClientProvider,
  skipToken,
  useQuery,
  type QueryKey,
} from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';

/** Stubs `fetch` to answer every request with `body` as JSON; returns the spy. */
export function serveJson(body: unknown) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    Response.json(body),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const ANSWERED = 'query-answered';

/** Shows the marker in the same render as every other reader of `queryKey` gets its answer. */
function AnsweredMarker({ queryKey }: { queryKey: QueryKey }) {
  // skipToken: this reader never fetches; it only watches the cache entry the real reader fills.
  const { isSuccess } = useQuery({ queryKey, queryFn: skipToken });
  return isSuccess ? <span data-testid={ANSWERED} hidden /> : null;
}

/**
 * Renders `ui` under a fresh query client (no retries). With `answeredKey`, a hidden marker shows
 * once that query has its answer: see {@link queryAnswered}.
 */
export function renderWithQueries(ui: ReactNode, { answeredKey }: { answeredKey?: QueryKey } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      {ui}
      {answeredKey ? <AnsweredMarker queryKey={answeredKey} /> : null}
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** Resolves once the `answeredKey` query has its answer and the components reading it rendered. */
export async function queryAnswered(): Promise<void> {
  await screen.findByTestId(ANSWERED);
}

/** A JSON answer as the BFF sends it: problem+json for a failure. */
export function jsonAnswer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status < 400 ? 'application/json' : 'application/problem+json' },
  });
}

/**
 * Stubs `fetch` with `answer` for the requests a test knows; every other request gets the BFF's
 * problem+json 404, so a page asking for something unexpected shows it rather than hanging. The
 * stub and every spy are undone after each test.
 */
export function stubApiPerTest(
  answer: (url: string, init?: RequestInit) => Promise<Response | undefined> | Response | undefined,
): void {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async (input: RequestInfo | URL, init?: RequestInit) =>
          (await answer(String(input), init)) ??
          jsonAnswer({ type: '/problems/not-found', title: 'nope', status: 404 }, 404),
      ),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

/** Renders `element` as the page at `routePath`, opened at `path`, under a fresh query client. */
export function renderRoute(routePath: string, element: ReactNode, path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: routePath, element }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient, user: userEvent.setup() };
}
