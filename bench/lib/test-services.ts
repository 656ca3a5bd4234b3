// The Redis, Redis Cluster and PostgreSQL the Redis scenarios measure against, started the way
// `npm test` starts them (scripts/start-test-services.sh: throwaway servers on loopback, installed
// from Debian when missing and root), so `npm run bench` skips no scenario for want of a server.
// Servers the caller names (BENCH_* or TEST_* variables) are used as they are.
import { spawnSync } from 'node:child_process';

const NEEDED = ['TEST_REDIS_URL', 'TEST_REDIS_CLUSTER_URL'] as const;

/** Starts the services unless they are named already; resolves to how to stop what it started. */
export function startTestServices(log: (line: string) => void): () => void {
  const env = process.env;
  const named = (variable: (typeof NEEDED)[number]) =>
    env[variable] ?? env[variable.replace(/^TEST_/, 'BENCH_')];
  if (NEEDED.every(named)) return () => undefined;
  const started = spawnSync('scripts/start-test-services.sh', [], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (started.status !== 0) {
    log('  test services could not be started: the Redis scenarios report what they can');
    return () => undefined;
  }
  for (const match of started.stdout.matchAll(/^export (TEST_[A-Z_]+)=(\S+)$/gm)) {
    env[match[1]!] ??= match[2];
  }
  return () => {
    spawnSync('scripts/start-test-services.sh', ['--stop'], { stdio: 'ignore' });
  };
}
