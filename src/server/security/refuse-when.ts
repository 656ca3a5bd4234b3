// The shape of the edge's checks: a middleware that refuses a request with one fixed problem when
// a test says so, and otherwise lets it through (csrf-header.ts, origin-check.ts).
import type { Context, MiddlewareHandler } from 'hono';
import type { Problem } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { HttpProblem } from '../http/problem';

/** Refuses with `problem` every request `refused` says yes to; the rest go on to the next handler. */
export function refuseWhen(
  refused: (c: Context<AppEnv>) => boolean,
  problem: Problem,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (refused(c)) throw new HttpProblem(problem);
    await next();
  };
}
