// The part of "what went wrong, and what to do" that every page says alike: an error the page did
// not expect, the console server out of reach, the platform too slow. Each feature words its own
// problem types and leaves these to this module.
import { PROBLEM_TYPES, type Problem } from '../shared/problem';
import { ApiError } from './api-client';

/** A failure in plain language: what happened, and what to do next. */
export interface ProblemText {
  readonly title: string;
  readonly advice: string;
}

const CONSOLE_UNREACHABLE: ProblemText = {
  title: 'The console server could not be reached',
  advice: 'Check your network connection, then try again.',
};

const PLATFORM_TIMEOUT: ProblemText = {
  title: 'The privacy platform did not answer in time',
  advice: 'It may be slow or overloaded right now. Try again in a moment.',
};

/**
 * What to tell the user about `error`: the common texts for an error that is not the BFF's answer
 * (a bug in the page: "`what` could not be shown"), for no answer at all from the console server,
 * for a successful answer of the console server that the page could not read, for a platform
 * timeout, and for a failure the BFF diagnosed (a `cause`: its title and detail);
 * `describe` words every other problem the BFF sent.
 */
export function describeApiError<T>(
  error: unknown,
  what: string,
  describe: (problem: Problem) => T,
): T | ProblemText {
  if (!(error instanceof ApiError)) {
    return {
      title: `${what} could not be shown`,
      advice: 'Something unexpected went wrong in this page. Try again; if it persists, reload it.',
    };
  }
  if (error.status === 0) return CONSOLE_UNREACHABLE;
  const { cause, title, detail } = error.problem;
  // A successful answer the page could not read (the console server never sends a problem with a
  // 2xx status): apiRequest's own words, not the platform wording of the same problem type.
  if (error.status >= 200 && error.status < 300 && detail) return { title, advice: detail };
  // A diagnosed platform failure (no token, TLS, broken HTTP): the console server's own words
  // name the real cause and the setting to check, which no page-level text can.
  if (cause && detail) return { title, advice: detail };
  if (error.problem.type === PROBLEM_TYPES.upstreamTimeout) return PLATFORM_TIMEOUT;
  return describe(error.problem);
}
