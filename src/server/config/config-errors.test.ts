// What an operator sees when a value is wrong: the real entry started with a bad environment,
// its output read as written. One line naming the variable, no stack trace, no password.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactedValue } from './config-values';
import { runBff, spawnBff } from '../test-support/bff-process';
import { PROCESS_TEST_TIMEOUT_MS } from '../test-support/process-deadline';

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

// Each case starts the real entry: test-support/process-deadline.ts.
describe('configuration errors at start', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
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
  ])('%s: one line naming it, without the password or a stack trace', async (variable, env) => {
    const { code, lines } = await startWith({ ...LIVE, ...env });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Configuration error: ${variable} `));
    expect(lines[0]).not.toContain('HUNTER2PASS');
    expect(lines[0]).not.toMatch(/\bat .*\.ts:\d+/);
  });
});

describe('a connections file at start', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('prints each of its problems on a line of its own, without a secret or a stack trace', async () => {
    const file = secretFile(
      JSON.stringify([
        {
          name: 'eu',
          baseUrl: 'https://eu.example.com',
          clientId: 'c',
          clientSecret: 'HUNTER2PASS',
          tier: 'gold',
        },
        { name: 'eu', baseUrl: 'ftp://us.example.com', clientId: 'c', clientSecret: 'HUNTER2PASS' },
      ]),
    );
    const { OAUTH_CLIENT_ID: _, OAUTH_CLIENT_SECRET: __, ...rest } = LIVE;
    const { code, lines } = await startWith({ ...rest, CONNECTIONS_FILE: file });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'Configuration error: CONNECTIONS_FILE: connection "eu" (#1): tier must be "production" or "sandbox" (got "gold")',
      'Configuration error: CONNECTIONS_FILE: connection "eu" (#2): baseUrl must be an absolute http(s) URL (got "ftp://us.example.com")',
      'Configuration error: CONNECTIONS_FILE: connection "eu" (#2): name is also that of connection "eu" (#1); each connection needs a name of its own',
    ]);
  });
});

/** A file holding `content` with `mode`, in a directory of its own. */
function secretFile(content: string, mode = 0o600): string {
  const file = join(mkdtempSync(join(tmpdir(), 'console-secret-')), 'secret');
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

// Each case starts a process: test-support/process-deadline.ts.
describe('secrets from files at start', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('refuses NAME and NAME_FILE both set, naming both in one line', async () => {
    const { code, lines } = await startWith({
      ...LIVE,
      UPSTREAM_BASE_URL: 'https://api.example.com',
      OAUTH_CLIENT_SECRET_FILE: secretFile('HUNTER2PASS-from-the-file\n'),
    });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'Configuration error: OAUTH_CLIENT_SECRET and OAUTH_CLIENT_SECRET_FILE are both set; set only one of them',
    ]);
  });

  it.each([
    ['a missing file', () => join(tmpdir(), 'console-no-such-secret'), /does not exist$/],
    ['a directory', () => mkdtempSync(join(tmpdir(), 'console-secret-dir-')), /is a directory/],
    [
      'a huge file',
      () => secretFile('HUNTER2PASS'.repeat(10_000)),
      /is larger than 64 KiB; it must hold the secret alone$/,
    ],
  ])('refuses %s, naming the path and never its content', async (_what, make, why) => {
    const path = make();
    const { code, lines } = await startWith({
      ...LIVE,
      SESSION_SECRET: '',
      SESSION_SECRET_FILE: path,
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Configuration error: SESSION_SECRET_FILE ${path} `);
    expect(lines[0]).toMatch(why);
    expect(lines[0]).not.toContain('HUNTER2PASS');
  });

  it('serves with the secret read at start, warns of a file others can read, and keeps the value when the file changes', async () => {
    const token = 'scrape-token-from-a-file-0123456789abcdef';
    const file = secretFile(`${token}\n`, 0o644);
    const bff = await spawnBff({
      METRICS_TOKEN_FILE: file,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'console-data-')),
    });
    try {
      const scrape = (bearer: string) =>
        fetch(`${bff.url}/metrics`, { headers: { Authorization: `Bearer ${bearer}` } });
      expect((await scrape(token)).status).toBe(200);
      expect(bff.output()).toContain(
        `Configuration warning: METRICS_TOKEN_FILE ${file} is readable by other users (mode 644)`,
      );
      expect(bff.output()).not.toContain(token);
      const replaced = 'another-token-written-later-0123456789abcdef';
      writeFileSync(file, replaced);
      expect((await scrape(token)).status).toBe(200);
      expect((await scrape(replaced)).status).toBe(401);
    } finally {
      bff.kill();
      await bff.exited;
    }
  });
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
