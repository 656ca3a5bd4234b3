// CONNECTIONS_FILE as an operator writes it: what a good file gives, and every line a bad one
// prints (all at once, naming the connection and the field, never a secret).
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConnectionsFileError, readConnectionsFile } from './connections-file';

const SECRET = 'HUNTER2-client-secret';

/** A directory of its own holding `files` (name -> content), each owner-only unless a mode says. */
function directoryWith(files: Record<string, string | [string, number]>): string {
  const directory = mkdtempSync(join(tmpdir(), 'console-connections-'));
  for (const [name, spec] of Object.entries(files)) {
    const [content, mode] = typeof spec === 'string' ? [spec, 0o600] : spec;
    writeFileSync(join(directory, name), content);
    chmodSync(join(directory, name), mode);
  }
  return directory;
}

/** The path of a connections file listing `connections`. */
function connectionsFile(connections: unknown, mode = 0o600): string {
  const directory = directoryWith({ 'connections.json': [JSON.stringify(connections), mode] });
  return join(directory, 'connections.json');
}

/** The lines reading `path` is refused with (fails the test when it is accepted). */
function refusal(path: string): readonly string[] {
  try {
    readConnectionsFile(path);
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectionsFileError);
    return (error as ConnectionsFileError).lines;
  }
  throw new Error('the file was accepted');
}

const PRODUCTION = {
  name: 'prod-eu',
  label: 'Production (EU)',
  baseUrl: 'https://eu.api.example.com',
  clientId: 'console-eu',
  clientSecret: SECRET,
};

describe('CONNECTIONS_FILE', () => {
  it('reads two connections with their settings, and the defaults of the variables for the rest', () => {
    const directory = directoryWith({ 'uat-secret': 'uat-secret-from-a-file\n' });
    const path = join(directory, 'connections.json');
    writeFileSync(
      path,
      JSON.stringify([
        PRODUCTION,
        {
          name: 'uat',
          label: 'UAT',
          colour: 'orange',
          required: true,
          baseUrl: 'https://uat.api.example.com/',
          clientId: 'console-uat',
          clientSecretFile: 'uat-secret',
          tokenUrl: 'https://login.uat.example.com/oauth/token',
          scope: 'ACTIVITY_LOG',
          clientAuth: 'basic',
          tokenEncoding: 'form',
          defaultTokenTtlSeconds: 600,
          tier: 'sandbox',
          policy: 'per-endpoint',
          endpointMinuteLimit: 500,
          accountHourLimit: 20_000,
          softLimits: 'ignore',
          arrayStyle: 'comma',
          timeoutMs: 5_000,
          maxAnswerBytes: 1_048_576,
          maxAnswerBytesByOperation: { 'event-types': 33_554_432 },
        },
      ]),
    );
    chmodSync(path, 0o600);
    const { connections, warnings } = readConnectionsFile(path);
    expect(warnings).toEqual([]);
    expect(connections).toEqual([
      {
        name: 'prod-eu',
        label: 'Production (EU)',
        colour: 'blue',
        required: false,
        upstream: {
          baseUrl: 'https://eu.api.example.com',
          timeoutMs: 10_000,
          maxAnswerBytes: 16 * 1024 * 1024,
          maxAnswerBytesByOperation: {},
          arrayQueryStyle: 'repeat',
          accountTier: 'production',
        },
        oauth: {
          clientId: 'console-eu',
          clientSecret: SECRET,
          tokenUrl: undefined,
          scope: undefined,
          clientAuth: 'body',
          tokenEncoding: 'multipart',
          defaultTokenTtlSeconds: 300,
        },
        rateLimits: {
          policy: 'account-and-module',
          endpointMinuteLimit: undefined,
          keepSoftLimits: true,
          accountOverride: {},
        },
      },
      {
        name: 'uat',
        label: 'UAT',
        colour: 'orange',
        required: true,
        upstream: {
          baseUrl: 'https://uat.api.example.com',
          timeoutMs: 5_000,
          maxAnswerBytes: 1_048_576,
          maxAnswerBytesByOperation: { 'event-types': 33_554_432 },
          arrayQueryStyle: 'comma',
          accountTier: 'sandbox',
        },
        oauth: {
          clientId: 'console-uat',
          clientSecret: 'uat-secret-from-a-file',
          tokenUrl: 'https://login.uat.example.com/oauth/token',
          scope: 'ACTIVITY_LOG',
          clientAuth: 'basic',
          tokenEncoding: 'form',
          defaultTokenTtlSeconds: 600,
        },
        rateLimits: {
          policy: 'per-endpoint',
          endpointMinuteLimit: 500,
          keepSoftLimits: false,
          accountOverride: { HOUR: 20_000 },
        },
      },
    ]);
  });

  it('labels a connection with its name and colours it by its position when the file does not', () => {
    const { connections } = readConnectionsFile(
      connectionsFile([
        { ...PRODUCTION, label: undefined },
        { ...PRODUCTION, name: 'prod-us', baseUrl: 'https://us.api.example.com' },
      ]),
    );
    expect(connections.map(({ name, label, colour }) => ({ name, label, colour }))).toEqual([
      { name: 'prod-eu', label: 'prod-eu', colour: 'blue' },
      { name: 'prod-us', label: 'Production (EU)', colour: 'green' },
    ]);
  });

  it('reports every problem of every connection at once, one line each, without the secret', () => {
    const lines = refusal(
      connectionsFile([
        {
          ...PRODUCTION,
          baseUrl: 'ftp://eu.api.example.com',
          tier: 'gold',
          timeoutMs: 5,
          tokenURL: 'https://typo.example.com',
        },
        { name: 'UAT', baseUrl: 'https://uat.example.com', clientSecret: 42 },
        'not an object',
        {
          ...PRODUCTION,
          name: 'prod-us',
          baseUrl: 'https://us.api.example.com',
          policy: 'per-endpoint',
          accountMinuteLimit: 1000,
          maxAnswerBytesByOperation: { 'event-types': 999_999_999 },
        },
      ]),
    );
    expect(lines).toEqual([
      'CONNECTIONS_FILE: connection "prod-eu" (#1): baseUrl must be an absolute http(s) URL (got "ftp://eu.api.example.com")',
      'CONNECTIONS_FILE: connection "prod-eu" (#1): tier must be "production" or "sandbox" (got "gold")',
      'CONNECTIONS_FILE: connection "prod-eu" (#1): timeoutMs must be a whole number from 100 to 120000 (got "5")',
      'CONNECTIONS_FILE: connection "prod-eu" (#1): tokenURL is not a connection setting',
      'CONNECTIONS_FILE: connection #2: name must be 1 to 32 lower-case letters, digits and hyphens, starting with a letter (got "UAT")',
      'CONNECTIONS_FILE: connection #2: clientSecret must be text',
      'CONNECTIONS_FILE: connection #2: clientId is required',
      'CONNECTIONS_FILE: connection #3: must be an object of settings',
      'CONNECTIONS_FILE: connection "prod-us" (#4): maxAnswerBytesByOperation.event-types must be from 65536 to 33554432 bytes (got "999999999")',
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('refuses settings that contradict each other, as the variables do', () => {
    expect(refusal(connectionsFile([{ ...PRODUCTION, endpointMinuteLimit: 500 }]))).toEqual([
      'CONNECTIONS_FILE: connection "prod-eu" (#1): endpointMinuteLimit applies only with policy=per-endpoint',
    ]);
  });

  it('refuses two connections with one name, naming both', () => {
    expect(
      refusal(
        connectionsFile([
          PRODUCTION,
          { ...PRODUCTION, clientId: 'another', baseUrl: 'https://us.api.example.com' },
        ]),
      ),
    ).toEqual([
      'CONNECTIONS_FILE: connection "prod-eu" (#2): name is also that of connection "prod-eu" (#1); each connection needs a name of its own',
    ]);
  });

  it('finds a repeated name and credential even in entries with other faults', () => {
    expect(
      refusal(
        connectionsFile([
          { ...PRODUCTION, tier: 'gold' },
          { ...PRODUCTION, timeoutMs: 1 },
        ]),
      ),
    ).toEqual([
      'CONNECTIONS_FILE: connection "prod-eu" (#1): tier must be "production" or "sandbox" (got "gold")',
      'CONNECTIONS_FILE: connection "prod-eu" (#2): timeoutMs must be a whole number from 100 to 120000 (got "1")',
      'CONNECTIONS_FILE: connection "prod-eu" (#2): name is also that of connection "prod-eu" (#1); each connection needs a name of its own',
      `CONNECTIONS_FILE: connection "prod-eu" (#2): clientId is also that of connection "prod-eu" (#1) at eu.api.example.com; one platform account is one connection (two would each spend the account's whole budget)`,
    ]);
  });

  it('refuses one client id twice at one host or one token endpoint, naming both connections', () => {
    const sameHost = refusal(
      connectionsFile([
        PRODUCTION,
        { ...PRODUCTION, name: 'uat', baseUrl: 'https://EU.api.example.com/uat/' },
      ]),
    );
    expect(sameHost).toEqual([
      `CONNECTIONS_FILE: connection "uat" (#2): clientId is also that of connection "prod-eu" (#1) at eu.api.example.com; one platform account is one connection (two would each spend the account's whole budget)`,
    ]);
    const sameTokenEndpoint = refusal(
      connectionsFile([
        { ...PRODUCTION, tokenUrl: 'https://login.example.com/token' },
        {
          ...PRODUCTION,
          name: 'prod-us',
          baseUrl: 'https://us.api.example.com',
          tokenUrl: 'https://login.example.com/token',
        },
      ]),
    );
    expect(sameTokenEndpoint).toEqual([
      `CONNECTIONS_FILE: connection "prod-us" (#2): clientId is also that of connection "prod-eu" (#1) at the token endpoint https://login.example.com/token; one platform account is one connection (two would each spend the account's whole budget)`,
    ]);
    // One client id at two hosts with their own token endpoints: two accounts that share a name.
    expect(
      readConnectionsFile(
        connectionsFile([
          PRODUCTION,
          { ...PRODUCTION, name: 'prod-us', baseUrl: 'https://us.api.example.com' },
        ]),
      ).connections,
    ).toHaveLength(2);
  });

  it('reads clientSecretFile relative to the connections file and warns of one others may read', () => {
    const directory = directoryWith({ 'eu-secret': ['secret-from-a-file\n', 0o644] });
    const path = join(directory, 'connections.json');
    const { clientSecret: _, ...withoutSecret } = PRODUCTION;
    // An empty clientSecret counts as unset, as an empty variable does.
    writeFileSync(
      path,
      JSON.stringify([{ ...withoutSecret, clientSecret: '', clientSecretFile: 'eu-secret' }]),
    );
    const { connections, warnings } = readConnectionsFile(path);
    expect(connections[0]?.oauth.clientSecret).toBe('secret-from-a-file');
    expect(warnings).toEqual([
      `CONNECTIONS_FILE: connection "prod-eu" (#1): clientSecretFile ${join(directory, 'eu-secret')} is readable by other users (mode 644); make it readable by the console's user alone (chmod 400 or 600)`,
    ]);
  });

  it('warns when the file itself holds a secret and others may read it', () => {
    const path = connectionsFile([PRODUCTION], 0o644);
    expect(readConnectionsFile(path).warnings).toEqual([
      `CONNECTIONS_FILE ${path} is readable by other users (mode 644); make it readable by the console's user alone (chmod 400 or 600)`,
    ]);
  });

  it('refuses a missing secret file, and a secret given both ways, naming the path only', () => {
    const { clientSecret: _, ...withoutSecret } = PRODUCTION;
    const path = connectionsFile([
      { ...withoutSecret, clientSecretFile: 'no-such-secret' },
      { ...PRODUCTION, name: 'uat', baseUrl: 'https://uat.example.com', clientSecretFile: 'x' },
      { ...withoutSecret, name: 'prod-us', baseUrl: 'https://us.example.com' },
    ]);
    const lines = refusal(path);
    expect(lines).toEqual([
      `CONNECTIONS_FILE: connection "prod-eu" (#1): clientSecretFile ${join(path, '..', 'no-such-secret')} does not exist`,
      'CONNECTIONS_FILE: connection "uat" (#2): clientSecret and clientSecretFile are both set; set only one of them',
      'CONNECTIONS_FILE: connection "prod-us" (#3): clientSecret or clientSecretFile is required',
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('refuses a file that is not a JSON list, saying where without quoting it', () => {
    const directory = directoryWith({
      'broken.json': `[{"name": "prod", "clientSecret": "${SECRET}"\n  "baseUrl": 1}]`,
      'object.json': JSON.stringify(PRODUCTION),
      'empty.json': '[]',
    });
    const broken = refusal(join(directory, 'broken.json'));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(
      new RegExp(
        `^CONNECTIONS_FILE ${join(directory, 'broken.json')} is not valid JSON \\(line 2, column 3\\)$`,
      ),
    );
    expect(broken[0]).not.toContain(SECRET);
    for (const name of ['object.json', 'empty.json']) {
      expect(refusal(join(directory, name))).toEqual([
        `CONNECTIONS_FILE ${join(directory, name)} must hold a JSON list of connections, at least one`,
      ]);
    }
    expect(refusal(join(directory, 'missing.json'))).toEqual([
      `CONNECTIONS_FILE ${join(directory, 'missing.json')} does not exist`,
    ]);
  });
});
