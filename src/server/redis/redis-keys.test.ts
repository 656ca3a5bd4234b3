// The key layout an operator reads in Redis: console-wide keys under a tag that follows the
// session secret alone, each connection's under a tag naming it, and `default` under the name the
// single connection had before connections existed, so an upgrade goes on counting where it was.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config';
import type { ConnectionConfig } from '../config/connection-config';
import { connectionKeys, consoleKeys, consoleRedisKeys } from './redis-keys';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const live = parseConfig({
  UPSTREAM_BASE_URL: 'https://platform.example.com',
  OAUTH_CLIENT_ID: 'console-client',
  OAUTH_CLIENT_SECRET: 'client-secret',
  CONSOLE_USERS_FILE: 'users.json',
  SESSION_SECRET: SECRET,
  AUDIT_KEY: 'an-audit-key-of-at-least-32-characters-long',
});
const production = live.connections[0]!;
const uat: ConnectionConfig = {
  ...production,
  name: 'uat',
  upstream: { ...production.upstream, baseUrl: 'https://uat.platform.example.com' },
  oauth: { ...production.oauth, clientId: 'uat-client' },
};

describe('Redis key names', () => {
  it('keeps default’s windows and blocks where the single connection had them', () => {
    // sha256("https://platform.example.com\nconsole-client"): the namespace of the release before.
    const keys = connectionKeys(live, production);
    expect(keys.tag).toBe('{console:d0e691c9b32ac1c9}');
    expect(keys.governor).toBe('{console:d0e691c9b32ac1c9}:governor');
    expect(keys.block('rule', 'events-minute')).toBe(
      '{console:d0e691c9b32ac1c9}:block:rule:events-minute',
    );
  });

  it('names every other connection in its hash tag, apart from default’s', () => {
    const keys = connectionKeys(live, uat);
    expect(keys.tag).toMatch(/^\{console:uat:[0-9a-f]{16}\}$/);
    expect(keys.blocksChannel).toBe(`${keys.tag}:blocks`);
    expect(keys.tag).not.toBe(connectionKeys(live, production).tag);
  });

  it('keeps demo mode’s two mock connections apart, though they share the session secret', () => {
    const demo = parseConfig({ SESSION_SECRET: SECRET });
    const [mockProduction, mockUat] = demo.connections;
    expect(mockUat!.name).toBe('uat');
    expect(connectionKeys(demo, mockUat!).governor).not.toBe(
      connectionKeys(demo, mockProduction!).governor,
    );
  });

  it('derives the console-wide tag from the session secret alone, never spelling it', () => {
    const keys = consoleKeys(live);
    expect(keys.tag).toMatch(/^\{console-wide:[0-9a-f]{16}\}$/);
    expect(keys.session('h')).toBe(`${keys.tag}:session:h`);
    expect(keys.tag).not.toContain(SECRET);
    // Adding or re-pointing a connection does not move sessions; another secret does.
    const moved = { ...live, connections: [uat, production] };
    expect(consoleKeys(moved).tag).toBe(keys.tag);
    expect(consoleKeys({ auth: { ...live.auth, sessionSecret: `${SECRET}!` } }).tag).not.toBe(
      keys.tag,
    );
    // Console-wide and connection keys never share a tag.
    expect(keys.tag).not.toBe(connectionKeys(live, production).tag);
  });

  it('refuses a namespace that would end the hash tag early', () => {
    expect(() => consoleRedisKeys('a}b')).toThrow('cannot contain braces');
  });
});
