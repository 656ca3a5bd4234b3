import { describe, expect, it } from 'vitest';
import { signInPath } from './return-to';

describe('signInPath', () => {
  it('remembers the path and query to come back to', () => {
    expect(signInPath({ pathname: '/event-types', search: '?module=A%20B' })).toBe(
      '/sign-in?returnTo=%2Fevent-types%3Fmodule%3DA%2520B',
    );
  });

  it('does not remember the home page or the sign-in page', () => {
    expect(signInPath({ pathname: '/', search: '' })).toBe('/sign-in');
    expect(signInPath({ pathname: '/sign-in', search: '?returnTo=/x' })).toBe('/sign-in');
  });
});
