// What deploy/ ships for an operator's Prometheus and Grafana, checked against a running console
// (demo mode, as a real process): the alerting rules load and pass their own unit tests
// (`promtool test rules`), and every query of the rules and of the Grafana dashboard names a
// metric the console's /metrics really exports, with at least one series.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBff, type BffProcess } from '../test-support/bff-process';
import { PROCESS_TEST_TIMEOUT_MS } from '../test-support/process-deadline';
import { tempDirsPerTest } from '../test-support/temp-dirs';

const PROMTOOL = spawnSync('which', ['promtool'], { encoding: 'utf8' }).stdout.trim() || undefined;
const RULES = 'deploy/prometheus/console-alerts.yaml';
const DASHBOARD = 'deploy/grafana/privacy-api-console.json';

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const PROMQL_OPERATORS = new Set(['and', 'or', 'unless', 'bool', 'offset']);

/** The metric names a PromQL expression reads (its functions, labels and keywords left out). */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // range selectors
    .replace(/"[^"]*"/g, '')
    .replace(new RegExp(`\\b(${[...PROMQL_WORDS].join('|')})\\s*\\([^)]*\\)`, 'g'), '');
  return [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter(([, name, call]) => call === undefined && !PROMQL_OPERATORS.has(name!))
    .map(([, name]) => name!);
}

/** Every expression of the rules file (`expr: …`, one line or a block). */
function ruleExpressions(yaml: string): string[] {
  return [...yaml.matchAll(/^\s+expr: (\|\n((?:\s{10}.*\n)+)|(.*)\n)/gm)].map(
    (match) => match[2] ?? match[3]!,
  );
}

interface Panel {
  readonly title: string;
  readonly type: string;
  readonly targets?: readonly { readonly expr: string }[];
}

describe('deploy/ for Prometheus and Grafana', () => {
  const tempDir = tempDirsPerTest('console-deploy-');
  let bff: BffProcess;
  /** The names of the series /metrics exported, histograms' _bucket, _sum and _count included. */
  let exported: Set<string>;

  beforeAll(async () => {
    // A started process: test-support/process-deadline.ts.
    bff = await spawnBff({ DATA_DIR: tempDir() });
    // Demo mode: the simulated integrations report once they start; wait for their series.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const text = await (await fetch(`${bff.url}/metrics`)).text();
      exported = new Set(
        text
          .split('\n')
          .filter((line) => line !== '' && !line.startsWith('#'))
          .map((line) => /^([^\s{]+)/.exec(line)![1]!),
      );
      if (exported.has('console_integration_reported_requests')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    bff?.kill('SIGKILL');
    await bff?.exited;
  });

  it.skipIf(!PROMTOOL)('the alerting rules load, and pass their unit tests', () => {
    const check = spawnSync(PROMTOOL!, ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(check.stdout).toContain('SUCCESS: 9 rules found');
    const test = spawnSync(PROMTOOL!, ['test', 'rules', 'console-alerts.test.yaml'], {
      cwd: 'deploy/prometheus',
      encoding: 'utf8',
    });
    expect(`${test.stdout}${test.stderr}`).toContain('SUCCESS');
    expect(test.status).toBe(0);
  });

  it('every alerting rule reads metrics the console exports', () => {
    const expressions = ruleExpressions(readFileSync(RULES, 'utf8'));
    expect(expressions).toHaveLength(9);
    const missing = expressions.flatMap(metricNames).filter((name) => !exported.has(name));
    expect(missing).toEqual([]);
  });

  it('every query of the Grafana dashboard names a metric the console exports', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
    const charts = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(charts.length).toBeGreaterThanOrEqual(10);
    const missing: string[] = [];
    for (const panel of charts) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets!) {
        const names = metricNames(expr);
        expect(names.length, expr).toBeGreaterThan(0);
        missing.push(
          ...names.filter((name) => !exported.has(name)).map((n) => `${panel.title}: ${n}`),
        );
      }
    }
    expect(missing).toEqual([]);
  });

  it('reads a metric name out of a query as Prometheus does', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, operation) (rate(x_bucket{a="b"}[$__rate_interval])))',
      ),
    ).toEqual(['x_bucket']);
    expect(metricNames('time() - max(y_seconds) and on (instance) z > 0')).toEqual([
      'y_seconds',
      'z',
    ]);
  });
});
