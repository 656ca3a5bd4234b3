// Problem+json responses (RFC 9457) and the error type routes throw to produce them.
import type { Context } from 'hono';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, type Problem } from '../../shared/problem';
import { activeTraceId } from '../observability/traced-steps';
import { NO_STORE } from './no-store';

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

/**
 * Renders a problem as the response, with `Cache-Control: no-store`, and the request's `traceId`
 * when it is traced, so a person reporting the problem hands the operator the whole trace.
 */
export function problemResponse(
  c: Context,
  problem: Problem,
  headers: Record<string, string> = {},
) {
  const traceId = activeTraceId();
  return c.body(
    JSON.stringify(traceId ? { ...problem, traceId } : problem),
    problem.status as 400,
    {
      ...headers,
      'Content-Type': PROBLEM_CONTENT_TYPE,
      ...NO_STORE,
    },
  );
}

/** How an invalid-parameter problem reads where it is raised. */
export interface InvalidParameterWording {
  /** Worded for where the parameter came from (default: a query parameter). */
  readonly title?: string;
  /** Send `detail` as it is, without the parameter's name in front. */
  readonly detailAsIs?: boolean;
  /** Extension members after `parameter`, e.g. every field's error by name. */
  readonly extra?: Record<string, unknown>;
}

/** The 400 for one bad query or body parameter, naming it: the one builder of this problem. */
export function invalidParameter(
  parameter: string,
  detail: string,
  wording: InvalidParameterWording = {},
): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.invalidParameter,
    title: wording.title ?? 'Invalid query parameter',
    status: 400,
    detail: wording.detailAsIs ? detail : `${parameter}: ${detail}`,
    parameter,
    ...wording.extra,
  });
}
