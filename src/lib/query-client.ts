// The SPA's query client with defaults suited to an admin console.
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** Client errors and rate limits are answers, not glitches: retrying them only burns quota. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
      },
    },
  });
}
