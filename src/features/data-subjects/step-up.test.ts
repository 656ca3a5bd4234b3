import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { PROBLEM_TYPES } from '../../shared/problem';
import { stepUpAddress } from './step-up';

const page = { pathname: '/data-subjects', search: '?operation=v4-details' };

describe('stepUpAddress', () => {
  it('sends the browser through the provider and back to the lookup page, operation included', () => {
    const error = new ApiError({
      type: PROBLEM_TYPES.reauthenticationRequired,
      title: 'Sign in again to look someone up',
      status: 401,
      signInUrl: '/auth/sign-in?reauthenticate=1',
    });
    expect(stepUpAddress(error, page)).toBe(
      '/auth/sign-in?reauthenticate=1&returnTo=%2Fdata-subjects%3Foperation%3Dv4-details',
    );
  });

  it.each([
    ['a signed-out 401', { type: PROBLEM_TYPES.signedOut, title: 'Signed out', status: 401 }],
    [
      'a sign-in address elsewhere',
      {
        type: PROBLEM_TYPES.reauthenticationRequired,
        title: 'x',
        status: 401,
        signInUrl: 'https://evil.example/auth/sign-in?',
      },
    ],
  ])('leaves %s alone', (_case, problem) => {
    expect(stepUpAddress(new ApiError(problem), page)).toBeUndefined();
  });
});
