// GET /metrics as a scraper and off-the-shelf dashboards read it, from the console run as a real
// process (the entry reports Node's and the process's metrics): Prometheus's own checker
// (`promtool check metrics`, when installed: Debian's `prometheus` package) finds nothing to
// report, and the naming rules hold when it is not installed as well; Node's metrics keep their
// standard names, the console's carry its prefix; alerting counters exist at 0 before anything
// happened.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBff, type BffProcess } from '../test-support/bff-process';
import { PROCESS_TEST_TIMEOUT_MS } from '../test-support/process-deadline';
import { tempDirsPerTest } from '../test-support/temp-dirs';

/** The metrics reference, which lists every metric. */
const METRICS_DOC = readFileSync('docs/metrics.md', 'utf8');

const PROMTOOL = spawnSync('which', ['promtool'], { encoding: 'utf8' }).stdout.trim() || undefined;

interface Family {
  readonly name: string;
  readonly type: string;
  readonly help: boolean;
  readonly samples: string[];
}

/** The exposition text's metric families, by name, with their TYPE, HELP and sample names. */
function parseFamilies(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) {
      found = { name, type: 'untyped', help: false, samples: [] };
      families.set(name, found);
    }
    return found;
  };
  for (const line of text.split('\n')) {
    const meta = /^# (TYPE|HELP) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      const entry = family(name!);
      families.set(name!, kind === 'TYPE' ? { ...entry, type: rest! } : { ...entry, help: true });
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const sample = /^([^\s{]+)/.exec(line)![1]!;
    const owner = [...families.keys()]
      .filter((name) => sample === name || sample.startsWith(`${name}_`))
      .sort((a, b) => b.length - a.length)[0];
    family(owner ?? sample).samples.push(line);
  }
  return families;
}

/** What breaks Prometheus's metric naming rules in `families`, one line each. */
function namingProblems(families: Map<string, Family>): string[] {
  const problems: string[] = [];
  for (const { name, type, help, samples } of families.values()) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) problems.push(`${name}: not a valid name`);
    if (!help) problems.push(`${name}: no HELP`);
    if (type === 'counter' && !name.endsWith('_total')) {
      problems.push(`${name}: a counter without the _total suffix`);
    }
    if (type !== 'counter' && name.endsWith('_total')) {
      problems.push(`${name}: a ${type} with the _total suffix`);
    }
    if (/_(milliseconds|ms|kilobytes|megabytes|minutes|hours)(_|$)/.test(name)) {
      problems.push(`${name}: not in base units (seconds, bytes)`);
    }
    if (type === 'histogram') {
      for (const suffix of ['_bucket', '_sum', '_count']) {
        if (samples.length > 0 && !samples.some((s) => s.startsWith(`${name}${suffix}`))) {
          problems.push(`${name}: a histogram without ${suffix}`);
        }
      }
    }
  }
  return problems;
}

describe('GET /metrics for standard tools', () => {
  const tempDir = tempDirsPerTest('console-metrics-');
  let bff: BffProcess;
  let text: string;

  beforeAll(async () => {
    // A started process: test-support/process-deadline.ts.
    bff = await spawnBff({ DATA_DIR: tempDir(), MOCK_BACKGROUND_RPM: '0' });
    // A request first, so the request-duration histogram has series to check too.
    await bff.request('/api/session');
    const response = await fetch(`${bff.url}/metrics`);
    expect(response.status).toBe(200);
    text = await response.text();
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    bff?.kill('SIGKILL');
    await bff?.exited;
  });

  it.skipIf(!PROMTOOL)('passes promtool check metrics', () => {
    const check = spawnSync(PROMTOOL!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`.trim()).toBe('');
    expect(check.status).toBe(0);
  });

  it('follows the Prometheus naming rules', () => {
    const families = parseFamilies(text);
    expect(families.size).toBeGreaterThan(20);
    expect(namingProblems(families)).toEqual([]);
  });

  it('reports Node.js and the process under their standard names, its own under console_', () => {
    const names = [...parseFamilies(text).keys()];
    for (const standard of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_gc_duration_seconds',
    ]) {
      expect(names).toContain(standard);
    }
    const own = names.filter((name) => !/^(process|nodejs)_/.test(name));
    expect(own.length).toBeGreaterThan(5);
    for (const name of own) expect(name).toMatch(/^console_/);
  });

  it('has every alerting counter at 0 before anything happened', () => {
    const value = (series: string) =>
      text
        .split('\n')
        .find((line) => line.startsWith(`${series} `))
        ?.split(' ')[1];
    for (const rule of ['account-minute', 'account-hour']) {
      for (const reason of ['limit', 'blocked']) {
        expect(
          value(
            `console_governor_rejections_total{connection="default",rule="${rule}",reason="${reason}"}`,
          ),
        ).toBe('0');
      }
    }
    for (const status of ['429', '500', 'timeout', 'unreachable']) {
      expect(
        value(
          `console_upstream_requests_total{connection="default",operation="event-types",status="${status}"}`,
        ),
      ).toBe('0');
    }
    expect(value('console_incidents_recorded_total{connection="default",scope="account"}')).toBe(
      '0',
    );
    expect(value('console_token_requests_total{connection="default",outcome="failure"}')).toBe('0');
    expect(value('console_incident_write_failures_total{connection="default"}')).toBe('0');
    for (const outcome of ['retrying', 'dead']) {
      expect(value(`console_alert_deliveries_total{outcome="${outcome}"}`)).toBe('0');
    }
  });

  it('every metric is listed in docs/metrics.md', () => {
    const listed = new Set([...METRICS_DOC.matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]));
    const missing = [...parseFamilies(text).keys()].filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });
});
