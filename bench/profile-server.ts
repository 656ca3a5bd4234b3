// `npx tsx bench/profile-server.ts [event-types|lookup] [requests]`: records a CPU profile
// (`node --cpu-prof`) of the built console serving sequential requests at one connection, as the
// overhead scenario (uncached event types) or the audited-lookup scenario (v4 basic details)
// sends them, and prints where the time goes: self time per function, per source file and per
// package, divided by the number of requests. Used to find the causes behind those figures.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { DEMO_IDENTIFIERS } from '../src/shared/data-subject-demo';
import { startConsole, startMockUpstream } from './lib/console';
import { largest, profileTotals, type CpuProfile } from './lib/cpu-profile';
import { median } from './lib/load';

const kind = process.argv[2] === 'lookup' ? 'lookup' : 'event-types';
const count = Number(process.argv[3] ?? 3_000);
const profileDir = mkdtempSync(join(tmpdir(), 'console-cpu-prof-'));
const mock = await startMockUpstream(8790, { MOCK_EVENT_TYPES: '500', MOCK_RATE_LIMITS: 'off' });
const app = await startConsole(
  8791,
  mock.url,
  {
    EVENT_TYPES_CACHE_SECONDS: '0',
    ACCOUNT_MINUTE_LIMIT: '100000000',
    ACCOUNT_HOUR_LIMIT: '1000000000',
  },
  ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=100'],
);
const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
const send = async (index: number) => {
  const response =
    kind === 'lookup'
      ? await request(`${app.url}/api/data-subjects/lookups`, {
          method: 'POST',
          headers: { ...app.apiHeaders, 'content-type': 'application/json' },
          body: JSON.stringify({
            operation: 'v4-basic-details',
            params: { identifier: DEMO_IDENTIFIERS[index % DEMO_IDENTIFIERS.length] },
            // LOOKUP_PURPOSE is required by default: every lookup states why.
            purpose: { category: 'support ticket', reference: 'BENCH-1' },
          }),
          dispatcher: agent,
        })
      : await request(`${app.url}/api/event-types`, { headers: app.apiHeaders, dispatcher: agent });
  await response.body.arrayBuffer();
  if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}`);
};
const times: number[] = [];
try {
  for (let i = 0; i < 50; i += 1) await send(i); // warm-up
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    await send(i);
    times.push(performance.now() - t0);
  }
} finally {
  await agent.close();
  await app.stop();
  await mock.stop();
}

const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error('the console wrote no profile');
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
const { total, self, byFile, byPackage } = profileTotals(profile);
const requests = count + 50; // with the warm-up
console.log(
  `${kind}: ${count} requests, client p50 ${median(times).toFixed(2)} ms; ` +
    `console CPU ${(total / requests).toFixed(3)} ms per request (profile ${profileDir})`,
);
const per = (ms: number) => `${((ms / requests) * 1000).toFixed(0).padStart(5)} µs`;
for (const [name, ms] of largest(byPackage, 12)) console.log(`  package ${per(ms)}  ${name}`);
for (const [name, ms] of largest(byFile, 15)) console.log(`  file    ${per(ms)}  ${name}`);
for (const [name, ms] of largest(self, 40)) console.log(`  self    ${per(ms)}  ${name}`);
