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
  /**
   * Whether the page makes this request by itself rather than for a person's action. Such requests
   * do not extend the session (SESSION_IDLE_MINUTES). Default: background unless the person
   * clicked, typed or opened the page within the last few seconds.
   */
  background?: boolean;
}

/** How long after a click, a key or the page's load a request still counts as the person's. */
const ACTION_WINDOW_MS = 5_000;
let lastActionAt = Date.now();
let lastExtendedAt = Date.now();
const extendedListeners = new Set<(at: number) => void>();

if (typeof window !== 'undefined') {
  for (const type of ['pointerdown', 'keydown'] as const) {
    window.addEventListener(type, () => (lastActionAt = Date.now()), {
      capture: true,
      passive: true,
    });
  }
}

/**
 * Calls `listener` whenever a request made for a person's action succeeded: the server restarted
 * the session's idle timer then. Returns the unsubscribe function.
 */
export function onSessionExtended(listener: (at: number) => void): () => void {
  extendedListeners.add(listener);
  return () => extendedListeners.delete(listener);
}

/** When the session's idle timer was last restarted, as far as this page knows. */
export function sessionExtendedAt(): number {
  return lastExtendedAt;
}

/** The headers of every call to the BFF; `background` for a request the page makes by itself. */
function requestHeaders(background: boolean, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-CSRF': '1' };
  if (background) headers['X-Console-Background'] = '1';
  if (withBody) headers['Content-Type'] = 'application/json';
  return headers;
}

/**
 * GET requests sent by `sendEarly` and not yet taken over, by path. Each is taken once, only
 * within EARLY_TAKEN_WITHIN_MS (an answer kept longer could be out of date), and none after a 401.
 */
const early = new Map<string, Promise<Response>>();
const EARLY_TAKEN_WITHIN_MS = 10_000;

/**
 * Sends GET `paths` now, as the person's (the page was just opened), for the first apiRequest of
 * each path to take over instead of sending it again. For the requests a page needs before its
 * code has even been evaluated (src/app/start-early.ts).
 */
export function sendEarly(paths: readonly string[]): void {
  for (const path of paths) {
    // Already on its way (the entry and a route's loader may both start it): one answer serves.
    if (early.has(path)) continue;
    const response = fetch(path, {
      headers: requestHeaders(false, false),
      credentials: 'same-origin',
    });
    // A failure surfaces in the apiRequest that takes it; one never taken is not reported.
    response.catch(() => undefined);
    early.set(path, response);
    setTimeout(() => {
      if (early.get(path) === response) early.delete(path);
    }, EARLY_TAKEN_WITHIN_MS);
  }
}

/**
 * Sends GET `paths` early (as sendEarly) once the early request of `sessionPath` answers 200, that
 * is once someone is signed in; nothing when it answers otherwise (204: nobody is) or fails. The
 * status alone tells, so the session's answer is left whole for the apiRequest that takes it.
 */
export function sendEarlyWhenSignedIn(sessionPath: string, paths: readonly string[]): void {
  const session = early.get(sessionPath);
  if (!session || paths.length === 0) return;
  session.then(
    (response) => {
      if (response.status === 200) sendEarly(paths);
    },
    () => undefined,
  );
}

/** The early request of GET `path`, once; `undefined` when there is none (any longer). */
function takeEarly(path: string): Promise<Response> | undefined {
  const response = early.get(path);
  early.delete(path);
  return response;
}

/** A 401: the session has ended. */
function sessionEnded(): void {
  // Early answers not yet taken were asked for without a session: after a sign-in they would
  // answer 401 again for a session that exists.
  early.clear();
  for (const listener of signedOutListeners) listener();
}

/**
 * Whether a failure means the session has ended: a 401, except the step-up before a lookup
 * (`reauthentication-required`), where the session goes on and the page sends the browser
 * through the identity provider itself.
 */
function endsSession(error: ApiError): boolean {
  return error.status === 401 && error.problem.type !== PROBLEM_TYPES.reauthenticationRequired;
}

/** Calls the BFF and returns the body parsed with `schema`; throws ApiError otherwise. */
export async function apiRequest<T>(
  path: string,
  schema: ZodMiniType<T>,
  { signal, method = 'GET', body, background }: RequestOptions = {},
): Promise<T> {
  // An early request goes on if `signal` aborts; its answer is then only left unread. It was
  // sent as the person's.
  const taken = method === 'GET' && body === undefined ? takeEarly(path) : undefined;
  const isBackground = !taken && (background ?? Date.now() - lastActionAt > ACTION_WINDOW_MS);
  let response: Response;
  try {
    response = await (taken ??
      fetch(path, {
        method,
        headers: requestHeaders(isBackground, body !== undefined),
        credentials: 'same-origin',
        signal,
        body: body === undefined ? undefined : JSON.stringify(body),
      }));
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
    if (endsSession(error)) sessionEnded();
    throw error;
  }
  if (!isBackground) {
    lastExtendedAt = Date.now();
    for (const listener of extendedListeners) listener(lastExtendedAt);
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

/** A file the BFF answered: its bytes, the name it suggests, and the answer's headers. */
export interface FetchedFile {
  readonly blob: Blob;
  readonly fileName: string;
  readonly headers: Headers;
}

/**
 * Fetches a file (an export) from the BFF, a person's action: `fallbackName` when the answer names
 * none. A failure is the problem the BFF sent, as ApiError.
 */
export async function fetchFile(
  path: string,
  fallbackName: string,
  { method = 'GET', body }: Pick<RequestOptions, 'method' | 'body'> = {},
): Promise<FetchedFile> {
  const headers: Record<string, string> = { 'X-CSRF': '1' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    if (response.status === 401) sessionEnded();
    throw new ApiError(await readProblem(response));
  }
  const disposition = response.headers.get('Content-Disposition') ?? '';
  return {
    blob: await response.blob(),
    fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName,
    headers: response.headers,
  };
}

/**
 * A query function that GETs `path` from the BFF and parses the answer with `schema`; the query's
 * signal cancels it when the query is no longer wanted.
 */
export function getJson<T>(
  path: string,
  schema: ZodMiniType<T>,
): (context: { signal?: AbortSignal }) => Promise<T> {
  return ({ signal }) => apiRequest(path, schema, { signal });
}
