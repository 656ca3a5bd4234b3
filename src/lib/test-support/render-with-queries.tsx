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
import type { ReactNode } from 'react';
import { vi } from 'vitest';

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
