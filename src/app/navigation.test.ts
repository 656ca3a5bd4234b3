// Each page has its own document title, so tabs and history entries can be told apart.
import { describe, expect, it } from 'vitest';
import { itMapsEach } from '../lib/test-support/each-case';
import type { Role } from '../shared/session';
import { documentTitleFor, navigationFor } from './navigation';

describe('documentTitleFor', () => {
  itMapsEach('%s is titled “%s”', documentTitleFor, [
    ['/event-types', 'Event types · Privacy API Console'],
    ['/rate-limits', 'Rate limits · Privacy API Console'],
    ['/data-subjects', 'Data subjects · Privacy API Console'],
    ['/audit', 'Audit · Privacy API Console'],
    ['/sign-in', 'Sign in · Privacy API Console'],
    ['/nowhere', 'Page not found · Privacy API Console'],
  ]);
});

describe('navigationFor', () => {
  const pages = (role: Parameters<typeof navigationFor>[0]) =>
    navigationFor(role).map((entry) => entry.to);

  it('hides the console-wide pages from a person with roles in named connections only', () => {
    const theirs = pages(undefined);
    for (const consoleWide of [
      '/alerts',
      '/audit',
      '/accountability',
      '/integrations',
      '/sessions',
      '/tokens',
    ]) {
      expect(theirs).not.toContain(consoleWide);
    }
    expect(theirs).toEqual(expect.arrayContaining(['/event-types', '/rate-limits']));
  });

  it('shows a console-wide role its pages as before', () => {
    expect(pages('support')).toEqual(expect.arrayContaining(['/sessions', '/tokens']));
    expect(pages('admin')).toEqual(expect.arrayContaining(['/audit', '/integrations']));
  });

  it('offers a connection’s admin page by the role in that connection', () => {
    const offered = (role: Role | undefined, connectionRole: Role | undefined) =>
      navigationFor(role, connectionRole).some((entry) => entry.to === '/data-subjects');
    // Admin in UAT only, no console-wide role: UAT's data subjects are theirs to look up.
    expect(offered(undefined, 'admin')).toBe(true);
    // A console-wide admin who is support in the connection the links lead to: not there.
    expect(offered('admin', 'support')).toBe(false);
    expect(offered(undefined, undefined)).toBe(false);
    expect(offered('admin', 'admin')).toBe(true);
  });
});
