// Plain-language titles and next steps for a failed lookup, so the page says what happened and
// what to do rather than echoing a status code. "Not found" is an answer, not an error.
import { formatCountdown } from '../../components/ui/format-countdown';
import { ApiError } from '../../lib/api-client';
import { describeApiError, type ProblemText } from '../../lib/describe-problem';
import { DATA_SUBJECT_PROBLEM_TYPES } from '../../shared/data-subject-operations';
import { PROBLEM_TYPES, type Problem } from '../../shared/problem';

export interface LookupProblemText extends ProblemText {
  /** `neutral` for an answer (not found), `warning` for a wait, `danger` for a failure. */
  readonly tone: 'neutral' | 'warning' | 'danger';
  /** For whoever configures the console, shown behind a "Details" toggle. */
  readonly technical?: string;
}

/** What to tell the user about a failed lookup. */
export function describeLookupProblem(error: unknown): LookupProblemText {
  // The common texts (a page bug, no answer, a timeout) are failures.
  return { tone: 'danger', ...describeApiError(error, 'The lookup', describeLookupAnswer) };
}

function describeLookupAnswer(problem: Problem): LookupProblemText {
  switch (problem.type) {
    case DATA_SUBJECT_PROBLEM_TYPES.notFound:
      return {
        title: problem.title,
        advice:
          problem.detail ??
          'The privacy platform has no record for these parameters. Check the spelling, or try another operation.',
        tone: 'neutral',
      };
    case DATA_SUBJECT_PROBLEM_TYPES.operationUnavailable: {
      const path = (problem as { path?: unknown }).path;
      return {
        title: 'The console is not set up correctly for this lookup',
        advice:
          'The privacy platform did not recognise the console’s request, so it did not look for anyone: this is not a “not found” answer. Ask the console’s administrator to check its connection settings.',
        tone: 'danger',
        technical: `The platform answered 404 without its documented “not found” message${typeof path === 'string' ? ` for ${path}` : ''}. Check UPSTREAM_BASE_URL and any DATA_SUBJECT_OPERATIONS_FILE override.`,
      };
    }
    case DATA_SUBJECT_PROBLEM_TYPES.auditUnavailable:
      return {
        title: 'The lookup could not be recorded, so its answer was withheld',
        advice:
          'Every lookup of personal data is written to the audit trail first. Try again; if it persists, tell the console operator.',
        tone: 'danger',
      };
    case PROBLEM_TYPES.invalidParameter:
      return {
        title: 'Check the highlighted fields',
        advice: problem.detail ?? 'Some parameters are not valid; nothing was sent.',
        tone: 'warning',
      };
    case PROBLEM_TYPES.rateLimited:
      return {
        title: 'Rate limited by the privacy platform',
        advice:
          problem.retryAfterSeconds === undefined
            ? 'Too many requests were made in a short time. Wait a minute, then try again.'
            : `Too many requests were made in a short time. Try again in ${formatCountdown(problem.retryAfterSeconds)}.`,
        tone: 'warning',
      };
    case PROBLEM_TYPES.upstreamForbidden:
      return {
        title: 'The console may not use this operation',
        advice:
          'The platform refused the console’s access. An administrator may need to grant the console’s API client access to consent data.',
        tone: 'danger',
        technical:
          'The platform answered 403 Forbidden. The documents name the CONSENT and CONSENT_READ scopes for these operations; they are chosen when the API client is created.',
      };
    case PROBLEM_TYPES.upstreamBadRequest:
      return {
        title: 'The privacy platform refused the request',
        advice:
          'It did not accept the request as the console sent it. Check the values; if they look right, tell the console’s administrator.',
        tone: 'danger',
        technical:
          'The platform answered 400 Bad Request. If DATA_SUBJECT_OPERATIONS_FILE moves this operation or its parameters, check that override.',
      };
    case PROBLEM_TYPES.upstreamInvalidResponse:
      return {
        title: 'The privacy platform answered in an unexpected format',
        advice:
          'The console did not use the answer. Try again; if it persists, the platform may have changed.',
        tone: 'danger',
      };
    case PROBLEM_TYPES.upstreamUnavailable:
      return {
        title: 'The privacy platform is unavailable',
        advice: 'It could not be reached. Try again in a moment.',
        tone: 'danger',
      };
    default:
      return {
        title: problem.title,
        advice: problem.detail ?? 'Try again in a moment.',
        tone: 'danger',
      };
  }
}

/** The field errors a 400 names, by parameter. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.problem.type !== PROBLEM_TYPES.invalidParameter) {
    return {};
  }
  const errors = (error.problem as { errors?: unknown }).errors;
  if (typeof errors !== 'object' || errors === null) return {};
  return Object.fromEntries(
    Object.entries(errors).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
