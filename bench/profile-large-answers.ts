// `npx tsx bench/profile-large-answers.ts [rounds]`: the large-answers scenario's load (16
// event-types answers of 16 MiB at once, the same 16 filters each round, /healthz probed every
// 20 ms) against the built console under `node --cpu-prof`, at `npm start`'s heap size. Prints each
// round's time and probe p95, whether the console survived, and where each thread's time went
// (the main thread and the answer worker write one profile each). Used to find the causes behind
// the scenario's figures.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startConsole } from './lib/console';
import { largest, profileTotals, type CpuProfile } from './lib/cpu-profile';
import { percentile } from './lib/load';
import { eventTypesOfSize, startStubUpstream } from './lib/stub-upstream';

const rounds = Number(process.argv[2] ?? 2);
const PARALLEL = 16;
const profileDir = mkdtempSync(join(tmpdir(), 'console-large-answers-prof-'));
const stub = await startStubUpstream(eventTypesOfSize(16 * 1024 * 1024 - 1_024));
const app = await startConsole(
  8792,
  stub.url,
  { EVENT_TYPES_CACHE_SECONDS: '0', UPSTREAM_TIMEOUT_MS: '30000' },
  ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200'],
);
let exit = '';
app.child.on('exit', (code, signal) => (exit = `exited (${signal ?? code})`));
try {
  for (let round = 1; round <= rounds; round += 1) {
    // A fresh pool per round: a connection the console closed is not reused.
    const dispatcher = new Agent();
    const probes: number[] = [];
    let done = false;
    const prober = (async () => {
      while (!done) {
        const at = performance.now();
        await request(`${app.url}/healthz`, { dispatcher })
          .then((answer) => answer.body.dump())
          .catch(() => undefined);
        probes.push(performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const startedAt = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, index) => {
        try {
          const answer = await request(`${app.url}/api/event-types?modules=Module${index}`, {
            headers: app.apiHeaders,
            dispatcher,
          });
          await answer.body.arrayBuffer();
          return answer.statusCode;
        } catch {
          return 0;
        }
      }),
    );
    done = true;
    await prober;
    await dispatcher.close();
    const ok = statuses.filter((status) => status === 200).length;
    console.log(
      `round ${round}: ${(performance.now() - startedAt).toFixed(0)} ms, ${ok} of ${PARALLEL} answered 200, ` +
        `/healthz p95 ${percentile(probes, 95).toFixed(1)} ms over ${probes.length} probes`,
    );
  }
} finally {
  await app.stop();
  await stub.close();
}
console.log(`the console ${exit || 'kept running'}`);

for (const file of readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  const { total, self } = profileTotals(profile);
  console.log(`${file}: ${total.toFixed(0)} ms busy`);
  for (const [name, ms] of largest(self, 12)) {
    console.log(`  self ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  }
}
