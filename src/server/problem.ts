// Problem+json responses (RFC 9457) and the error type routes throw to produce them.
import type { Context } from 'hono';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, type Problem } from '../shared/problem';

/**
 * An error that becomes a problem+json answer. Routes throw it; the app's error handler renders
 * it. `headers` carries protocol headers such as Retry-After, never upstream headers as-is.
 */
export class HttpProblem extends Error {
  readonly problem: Problem;
  readonly headers: Record<string, string>;

  constructor(problem: Problem, headers: Record<string, string> = {}) {
    super(problem.detail ?? problem.title);
    this.name = 'HttpProblem';
    this.problem = problem;
    this.headers = headers;
  }
}

/** Renders a problem as the response, with `Cache-Control: no-store`. */
export function problemResponse(
  c: Context,
  problem: Problem,
  headers: Record<string, string> = {},
) {
  return c.body(JSON.stringify(problem), problem.status as 400, {
    ...headers,
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Cache-Control': 'no-store',
  });
}

/**
 * The 400 for one bad query or body parameter, naming it; `title` says what was refused (a
 * query parameter unless told otherwise).
 */
export function invalidParameter(
  parameter: string,
  detail: string,
  title = 'Invalid query parameter',
): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.invalidParameter,
    title,
    status: 400,
    detail: `${parameter}: ${detail}`,
    parameter,
  });
}
