// What the event-types page tells an administrator when the console could not sign in to the
// platform: the console server's diagnosis (its title and detail), not a generic guess per type.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { PROBLEM_TYPES } from '../../shared/problem';
import { describeProblem } from './describe-problem';

describe('describeProblem for a diagnosed sign-in failure', () => {
  it('shows the diagnosed cause instead of “rejected the console’s credentials”', () => {
    const text = describeProblem(
      new ApiError({
        type: PROBLEM_TYPES.upstreamBadRequest,
        title: 'The platform’s token endpoint accepts neither form encoding',
        status: 502,
        detail:
          'It answered 415 Unsupported Media Type to multipart/form-data and to application/x-www-form-urlencoded.',
        cause: 'unsupported-encoding',
      }),
    );
    expect(text).toEqual({
      title: 'The platform’s token endpoint accepts neither form encoding',
      advice:
        'It answered 415 Unsupported Media Type to multipart/form-data and to application/x-www-form-urlencoded.',
    });
  });

  it('keeps the page’s own words for an undiagnosed platform answer', () => {
    const text = describeProblem(
      new ApiError({ type: PROBLEM_TYPES.upstreamUnauthorized, title: 'x', status: 502 }),
    );
    expect(text.title).toBe("The privacy platform rejected the console's credentials");
  });
});

describe('describeProblem for the console’s own refusal', () => {
  it('says the console, not the platform, is busy', () => {
    const text = describeProblem(
      new ApiError({
        type: PROBLEM_TYPES.consoleBusy,
        title: 'The console is fetching as many lists as it allows at once',
        status: 503,
        retryAfterSeconds: 2,
      }),
    );
    expect(text.title).toBe('The console is busy fetching other lists');
    expect(text.advice).toContain('The platform is fine');
  });
});
