import { describe, expect, it } from 'vitest';
import { itMapsEach } from '../lib/test-support/each-case';
import { safeReturnTo } from './return-to';

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
