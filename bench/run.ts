// `npm run bench`: measures every quality bar of the product side by side in one run and writes
// bench/results.json and bench/RESULTS.md. `--smoke` runs one short round of each scenario so CI
// keeps the harness from rotting; its figures mean nothing. `--baseline=REF` also measures the
// build of an earlier commit with the scenarios that start the built console (lib/under-test.ts).
import { mkdirSync } from 'node:fs';
import { auditedLookupScenario } from './scenarios/audited-lookup';
import { bundleScenario } from './scenarios/bundle';
import { governorScenario } from './scenarios/governor';
import { governorRedisScenario } from './scenarios/governor-redis';
import { integrationIngestScenario } from './scenarios/integration-ingest';
import { largeAnswersScenario } from './scenarios/large-answers';
import { lighthouseScenario } from './scenarios/lighthouse';
import { replayScenario } from './scenarios/replay';
import { replayFairnessScenario } from './scenarios/replay-fairness';
import { reportFloodScenario } from './scenarios/report-flood';
import { wrongKeyFloodScenario } from './scenarios/wrong-key-flood';
import { liveIncidentScenario } from './scenarios/live-incident';
import { storeScaleScenario } from './scenarios/store-scale';
import type { BenchContext, Scenario } from './scenarios/context';
import { memoryScenario } from './scenarios/memory';
import { overheadScenario } from './scenarios/overhead';
import { robustnessScenario } from './scenarios/robustness';
import { incidentFloodScenario } from './scenarios/incident-flood';
import { tableBrowserScenario } from './scenarios/table-browser';
import { upstreamEconomyScenario } from './scenarios/upstream-economy';
import { writeReport, type Figure } from './lib/report';
import { startTestServices } from './lib/test-services';
import { buildBaseline, measuringBuildIn } from './lib/under-test';

const smoke = process.argv.includes('--smoke');
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
/** `--baseline=REF`: also measure the build of an earlier commit, for before and after. */
const baselineRef = process.argv
  .find((arg) => arg.startsWith('--baseline='))
  ?.slice('--baseline='.length);
// The scenarios that start the built console, so they can measure another build the same way.
const BEFORE_AND_AFTER = new Set([
  'overhead',
  'lookup',
  'memory',
  'table',
  'lighthouse',
  'replay-fairness',
]);
const ctx: BenchContext = {
  smoke,
  rounds: smoke ? 1 : 3,
  log: (line) => console.log(line),
};

const scenarios: Array<[string, Scenario]> = [
  ['bundle', bundleScenario],
  ['overhead', overheadScenario],
  ['lookup', auditedLookupScenario],
  ['economy', upstreamEconomyScenario],
  ['governor', governorScenario],
  ['governor-redis', governorRedisScenario],
  ['table', tableBrowserScenario],
  ['lighthouse', lighthouseScenario],
  ['live-incident', liveIncidentScenario],
  ['memory', memoryScenario],
  ['store', storeScaleScenario],
  ['replay', replayScenario],
  ['replay-fairness', replayFairnessScenario],
  ['ingest', integrationIngestScenario],
  ['robustness', robustnessScenario],
  ['incident-flood', incidentFloodScenario],
  ['large-answers', largeAnswersScenario],
  ['report-flood', reportFloodScenario],
  ['wrong-key-flood', wrongKeyFloodScenario],
];

// The scenarios that measure Redis and the Redis Cluster need their servers running.
const stopServices =
  !only || only.includes('governor-redis') || only.includes('lookup')
    ? startTestServices(ctx.log)
    : () => undefined;

const baseline = baselineRef ? buildBaseline(baselineRef, ctx.log) : undefined;
const started = performance.now();
const figures: Figure[] = [];
let crashed = 0;
for (const [name, scenario] of scenarios) {
  if (only && !only.includes(name)) continue;
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${name}…`);
  if (baseline && BEFORE_AND_AFTER.has(name)) {
    try {
      ctx.log(`  first on the build of ${baseline.commit}`);
      const before = await measuringBuildIn(baseline.dir, () => scenario(ctx));
      figures.push(
        ...before.map(({ bar: _bar, pass: _pass, ...rest }) => ({ ...rest, before: true })),
      );
    } catch (error) {
      console.error(`  ${name} failed to run on ${baseline.commit}: ${(error as Error).message}`);
    }
  }
  try {
    const result = await scenario(ctx);
    figures.push(...result);
    for (const f of result.filter((entry) => entry.bar)) {
      console.log(
        `  ${f.pass ? 'pass' : 'FAIL'}  ${f.name}: ${f.value} ${f.unit} (bar ${f.bar?.op} ${f.bar?.value})`,
      );
    }
  } catch (error) {
    crashed += 1;
    // fetch's TypeError says only "fetch failed"; its cause says what failed (refused, reset…).
    const cause = (error as Error).cause;
    console.error(`  ${name} failed to run: ${(error as Error).stack ?? error}`);
    if (cause) console.error(`  caused by: ${cause instanceof Error ? cause.message : cause}`);
  }
}
stopServices();
baseline?.remove();
const outDir = smoke ? '.test-results' : 'bench';
mkdirSync(outDir, { recursive: true });
const { passed, total } = writeReport(outDir, figures, {
  smoke,
  rounds: ctx.rounds,
  seconds: (performance.now() - started) / 1000,
  ...(baseline ? { baseline: baseline.commit } : {}),
});
console.log(
  `Wrote ${outDir}/results.json and ${outDir}/RESULTS.md: ${passed} of ${total} bars met, ${crashed} scenario(s) failed to run.`,
);
// A smoke run checks that every scenario runs; a full run reports misses but does not fail on them.
process.exit(crashed > 0 ? 1 : 0);
