import { describe, expect, it } from 'vitest';
import { itMapsEach } from '../../lib/test-support/each-case';
import { safeReturnTo, signInPath } from './return-to';

describe('safeReturnTo', () => {
  itMapsEach('accepts the console path %j', (value: string) => safeReturnTo(value), [
    ['/event-types', '/event-types'],
    ['/event-types?module=Consent&sort=name', '/event-types?module=Consent&sort=name'],
    ['/rate-limits#incident-1', '/rate-limits#incident-1'],
    ['/a/b/../c', '/a/c'],
  ]);

  it.each([
    ['another site', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash URL', '/\\evil.example'],
    ['a backslash later on', '/x\\..\\\\evil.example'],
    ['a tab browsers would strip', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'event-types'],
    ['the sign-in page itself', '/sign-in?returnTo=/x'],
    ['nothing', null],
    ['an empty string', ''],
  ])('refuses %s', (_, value) => {
    expect(safeReturnTo(value)).toBe('/');
  });

  it('uses the given fallback', () => {
    expect(safeReturnTo('//evil.example', '/event-types')).toBe('/event-types');
  });
});

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
