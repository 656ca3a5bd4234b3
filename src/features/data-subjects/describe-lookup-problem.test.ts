// A rate-limited lookup tells the wait in the console's one countdown format ("59:24"), the same
// the banner and the other pages show for the same block.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { PROBLEM_TYPES } from '../../shared/problem';
import { describeLookupProblem } from './describe-lookup-problem';

const rateLimited = (retryAfterSeconds?: number) =>
  new ApiError({
    type: PROBLEM_TYPES.rateLimited,
    title: 'Rate limited',
    status: 429,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });

describe('describeLookupProblem for a rate-limited lookup', () => {
  it('writes the wait as the shared countdown, minutes and seconds', () => {
    expect(describeLookupProblem(rateLimited(3564)).advice).toBe(
      'Too many requests were made in a short time. Try again in 59:24.',
    );
    expect(describeLookupProblem(rateLimited(42)).advice).toMatch(/Try again in 0:42\.$/);
    expect(describeLookupProblem(rateLimited(3600)).advice).toMatch(/Try again in 1:00:00\.$/);
  });

  it('asks for a minute when the platform named no wait', () => {
    const text = describeLookupProblem(rateLimited());
    expect(text.tone).toBe('warning');
    expect(text.advice).toContain('Wait a minute, then try again.');
  });
});
