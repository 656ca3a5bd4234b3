// What an operator sees when a value is wrong: the real entry started with a bad environment,
// its output read as written. One line naming the variable, no stack trace, no password.
import { describe, expect, it } from 'vitest';
import { redactedValue } from './config';
import { runBff } from './test-support/bff-process';

async function startWith(env: Record<string, string>) {
  const run = runBff(env);
  const exit = await run.exited;
  return {
    code: exit.code,
    lines: run
      .output()
      .split('\n')
      .filter((line) => line.trim() !== ''),
  };
}

const LIVE = {
  OAUTH_CLIENT_ID: 'id',
  OAUTH_CLIENT_SECRET: 'a-client-secret',
  CONSOLE_USERS_FILE: './users.json',
  SESSION_SECRET: 's'.repeat(32),
  AUDIT_KEY: 'k'.repeat(32),
};

describe('configuration errors at start', () => {
  it.each([
    ['UPSTREAM_BASE_URL', { UPSTREAM_BASE_URL: 'http://user:HUNTER2PASS@api.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'http://user:HUNTER2PASS@console.example.com' }],
    [
      'OAUTH_TOKEN_URL',
      { UPSTREAM_BASE_URL: 'https://api.example.com', OAUTH_TOKEN_URL: 'http://user:HUNTER2PASS@' },
    ],
    [
      'OAUTH_TOKEN_URL',
      { UPSTREAM_BASE_URL: 'https://api.example.com', OAUTH_TOKEN_URL: 'nope HUNTER2PASS' },
    ],
  ])(
    '%s: one line naming it, without the password or a stack trace',
    async (variable, env) => {
      const { code, lines } = await startWith({ ...LIVE, ...env });
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Configuration error: ${variable} `));
      expect(lines[0]).not.toContain('HUNTER2PASS');
      expect(lines[0]).not.toMatch(/\bat .*\.ts:\d+/);
      // Each case starts the real entry, which exits by itself; on a busy machine compiling and
      // starting it can take longer than Vitest's 5 s default, so the deadline only bounds a hang.
    },
    60_000,
  );
});

describe('redactedValue', () => {
  it('replaces the password of a URL and keeps the rest', () => {
    expect(redactedValue('http://user:HUNTER2PASS@host:8080/x')).toBe(
      'http://user:***@host:8080/x',
    );
    expect(redactedValue('https://only-a-token@host')).toBe('https://***@host');
    expect(redactedValue('not a url')).toBe('not a url');
  });
});
