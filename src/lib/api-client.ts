// The SPA's only way to talk to the BFF: same-origin, with the CSRF header, problem+json errors
// turned into ApiError, and every answer validated against its shared schema.
import type { ZodMiniType } from 'zod/mini';
import { PROBLEM_TYPES, ProblemSchema, type Problem } from '../shared/problem';

/** An answer from the BFF that was not a success, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
    this.status = problem.status;
    this.problem = problem;
  }
}

type SignedOutListener = () => void;
const signedOutListeners = new Set<SignedOutListener>();

/**
 * Calls `listener` whenever the BFF answers 401 to any /api call: the session has ended (signed
 * out elsewhere, expired, or the server restarted). The app shell reacts once for every feature,
 * so features never handle sign-in themselves. Returns the unsubscribe function.
 */
export function onSignedOut(listener: SignedOutListener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

interface RequestOptions {
  signal?: AbortSignal;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
}

/** Calls the BFF and returns the body parsed with `schema`; throws ApiError otherwise. */
export async function apiRequest<T>(
  path: string,
  schema: ZodMiniType<T>,
  { signal, method = 'GET', body }: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-CSRF': '1' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({
      type: PROBLEM_TYPES.upstreamUnavailable,
      title: 'The console server could not be reached',
      status: 0,
      detail: 'Check your connection; the request will be retried when you try again.',
    });
  }
  if (!response.ok) {
    const error = new ApiError(await readProblem(response));
    if (response.status === 401) for (const listener of signedOutListeners) listener();
    throw error;
  }
  if (response.status === 204) return schema.parse(undefined);
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success) {
    throw new ApiError({
      type: PROBLEM_TYPES.upstreamInvalidResponse,
      title: 'The console server sent an answer this page does not understand',
      status: response.status,
      detail: 'Reload the page; if it persists the server and page versions may differ.',
    });
  }
  return parsed.data;
}

async function readProblem(response: Response): Promise<Problem> {
  const fallback: Problem = {
    type: PROBLEM_TYPES.internal,
    title: response.statusText || 'Request failed',
    status: response.status,
  };
  try {
    const parsed = ProblemSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}
