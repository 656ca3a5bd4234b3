// Plain-language titles and next steps for each way loading event types can fail, so the page
// tells an admin what happened and what to do instead of echoing an HTTP status.
import { describeApiError, type ProblemText } from '../../lib/describe-problem';
import { PROBLEM_TYPES, type Problem } from '../../shared/problem';

/** What to tell the user about a failed event-types request. */
export function describeProblem(error: unknown): ProblemText {
  return describeApiError(error, 'The event types', describeEventTypesProblem);
}

function describeEventTypesProblem(problem: Problem): ProblemText {
  switch (problem.type) {
    case PROBLEM_TYPES.upstreamForbidden:
      return {
        title: 'The console may not read the activity log',
        advice:
          "The console's API client is not allowed to read the activity log. Ask an administrator to grant the ACTIVITY_LOG scope.",
      };
    case PROBLEM_TYPES.upstreamUnauthorized:
      return {
        title: "The privacy platform rejected the console's credentials",
        advice:
          'The OAuth client ID or secret the console signs in with is wrong, expired or revoked. Ask an administrator to check this connection’s client ID and secret.',
      };
    case PROBLEM_TYPES.upstreamBadRequest:
      return {
        title: 'The privacy platform refused the request',
        advice:
          "It did not accept the console's request (400). Try again; if it persists, report it to the console's maintainers.",
      };
    case PROBLEM_TYPES.upstreamError:
      return {
        title: 'The privacy platform had an internal error',
        advice: "The problem is on the platform's side. Try again in a moment.",
      };
    case PROBLEM_TYPES.upstreamUnavailable:
      return {
        title: 'The privacy platform is unavailable',
        advice: 'It could not be reached or is down for maintenance. Try again in a moment.',
      };
    case PROBLEM_TYPES.upstreamInvalidResponse:
      return {
        title: 'The privacy platform sent an answer the console does not understand',
        advice:
          'Its response did not have the expected shape. Try again; if it persists, the platform may have changed its API.',
      };
    case PROBLEM_TYPES.rateLimited:
      return {
        title: 'Rate limited by the privacy platform',
        advice: 'Too many requests were made in a short time. Wait, then try again.',
      };
    case PROBLEM_TYPES.consoleBusy:
      return {
        title: 'The console is busy fetching other lists',
        advice:
          'Many different event-type lists were asked for at once, and this one did not get its turn. The platform is fine. Try again in a moment.',
      };
    default:
      return {
        title: 'The console could not load the event types',
        advice: 'The console server ran into a problem. Try again; if it persists, check its logs.',
      };
  }
}
