// Scenario 10, incident flood: /healthz latency (p95) while 2,000 distinct incidents a minute are
// recorded and fanned out to 200 open live streams (20 users, 2 sessions each, 5 streams per
// session: within the per-user and per-session caps). Bar: p95 at most 50 ms.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '../../src/server/auth/password-hash';
import { writeUsersFile } from '../../src/server/auth/users-file';
import { signIn, startMockUpstream } from '../lib/console';
import { percentile } from '../lib/load';
import { startNodeProcess } from '../lib/processes';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8790, console: 8791 };
const PASSWORD = 'bench-flood-password';

export async function incidentFloodScenario(ctx: BenchContext): Promise<Figure[]> {
  const users = Array.from({ length: 20 }, (_, n) => `flood${n}`);
  const usersFile = join(mkdtempSync(join(tmpdir(), 'bench-flood-')), 'users.json');
  const hash = await hashPassword(PASSWORD, { N: 1024, r: 8, p: 1 });
  writeUsersFile(
    usersFile,
    users.map((username) => ({ username, role: 'support' as const, passwordHash: hash })),
  );
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  const app = await startNodeProcess('bench/lib/flood-console.ts', {
    name: 'flood console',
    port: PORTS.console,
    readyPath: '/healthz',
    env: {
      PORT: String(PORTS.console),
      UPSTREAM_BASE_URL: mock.url,
      OAUTH_CLIENT_ID: 'demo-client',
      OAUTH_CLIENT_SECRET: 'demo-secret',
      CONSOLE_USERS_FILE: usersFile,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
      AUDIT_KEY: 'bench-audit-key-0123456789abcdef0123456789abcdef',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-flood-data-')),
      LOG_LEVEL: 'warn',
      FLOOD_PER_MINUTE: '2000',
    },
  });
  const controller = new AbortController();
  try {
    const streams: Promise<void>[] = [];
    let received = 0;
    for (const username of users) {
      for (let session = 0; session < 2; session += 1) {
        const cookie = await signIn(app.url, username, PASSWORD);
        for (let n = 0; n < 5; n += 1) {
          const response = await fetch(`${app.url}/api/rate-limits/stream`, {
            headers: { cookie },
            signal: controller.signal,
          });
          if (response.status !== 200) throw new Error(`stream refused: ${response.status}`);
          streams.push(
            (async () => {
              const reader = response.body!.getReader();
              for (;;) {
                const { value, done } = await reader.read();
                if (done) return;
                received += value.length;
              }
            })().catch(() => undefined),
          );
        }
      }
    }
    const seconds = ctx.smoke ? 5 : 60;
    const latencies: number[] = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const started = performance.now();
      await (await fetch(`${app.url}/healthz`)).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const p95 = percentile(latencies, 95);
    ctx.log(
      `  incident flood: ${streams.length} streams, ${(received / 1048576).toFixed(1)} MB delivered, /healthz p95 ${p95.toFixed(1)} ms over ${latencies.length} probes`,
    );
    return [
      figure(
        'Robustness',
        '/healthz p95 during 2,000 incidents a minute with 200 open streams',
        p95,
        'ms',
        { op: '<=', value: 50 },
      ),
    ];
  } finally {
    controller.abort();
    await app.stop();
    await mock.stop();
  }
}
