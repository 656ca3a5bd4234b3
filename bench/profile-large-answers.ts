// `npx tsx bench/profile-large-answers.ts [rounds]`: the large-answers scenario's rounds (16
// event-types answers of 16 MiB at once, the same 16 filters each round, /healthz probed every
// 20 ms) against the built console under `node --cpu-prof`, at `npm start`'s heap size. Prints each
// round's time and probe p95, whether the console survived, and where each thread's time went
// (the main thread and the answer worker write one profile each). Used to find the causes behind
// the scenario's figures.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largest, profileTotals, type CpuProfile } from './lib/cpu-profile';
import { percentile } from './lib/load';
import { largeAnswersRound, startLargeAnswersConsole } from './scenarios/large-answers';

const rounds = Number(process.argv[2] ?? 2);
const profileDir = mkdtempSync(join(tmpdir(), 'console-large-answers-prof-'));
const { app, stop } = await startLargeAnswersConsole([
  '--cpu-prof',
  `--cpu-prof-dir=${profileDir}`,
  '--cpu-prof-interval=200',
]);
try {
  for (let round = 1; round <= rounds; round += 1) {
    const startedAt = performance.now();
    const { probes, statuses } = await largeAnswersRound(app, console.log);
    const ok = statuses.filter((status) => status === 200).length;
    console.log(
      `round ${round}: ${(performance.now() - startedAt).toFixed(0)} ms, ` +
        `${ok} of ${statuses.length} answered 200, ` +
        `/healthz p95 ${percentile(probes, 95).toFixed(1)} ms over ${probes.length} probes`,
    );
  }
  const { exitCode, signalCode } = app.child;
  const ended = exitCode !== null || signalCode !== null;
  console.log(`the console ${ended ? `ended (${signalCode ?? exitCode})` : 'kept running'}`);
} finally {
  await stop();
}

for (const file of readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  const { total, self } = profileTotals(profile);
  console.log(`${file}: ${total.toFixed(0)} ms busy`);
  for (const [name, ms] of largest(self, 12)) {
    console.log(`  self ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  }
}
