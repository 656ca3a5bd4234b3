// The answer while the session store cannot be read (Redis or the database away): a 503 with
// Retry-After, so nobody is signed out by an outage.
import { PROBLEM_TYPES } from '../../shared/problem';
import { HttpProblem } from '../http/problem';

/** The 503 a request gets while its session cannot be read; `error` is kept as the cause. */
export function sessionStoreUnavailable(error: unknown): HttpProblem {
  return Object.assign(
    new HttpProblem(
      {
        type: PROBLEM_TYPES.storeUnavailable,
        title: 'Sign-in is unavailable for a moment',
        status: 503,
        detail: 'The console cannot reach its session store. Try again in a few seconds.',
        retryAfterSeconds: 5,
      },
      { 'Retry-After': '5' },
    ),
    { cause: error },
  );
}
