// A small Redis Cluster of the test's own (three masters, no replicas, no persistence, loopback
// only), for tests that take a node away: the shared cluster of scripts/start-test-services.sh
// serves every other test file, so it is never harmed. A short node timeout lets the cluster
// declare a lost master failed within a second or two instead of fifteen.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { withinDeadline } from '../runtime/within-deadline';

// How long the nodes may take to listen, and the cluster to serve every slot.
const START_TIMEOUT_MS = 15_000;

/** Whether redis-server and redis-cli are installed (scripts/start-test-services.sh installs them). */
export const REDIS_SERVER_INSTALLED =
  spawnSync('redis-server', ['--version']).status === 0 &&
  spawnSync('redis-cli', ['--version']).status === 0;

export interface TestRedisCluster {
  /** REDIS_URL naming every master as a seed. */
  readonly url: string;
  readonly ports: readonly number[];
  /** SIGKILLs the master on `port`, as a crashed node. */
  kill(port: number): void;
  /** The master that holds `key`'s slot. */
  portOfKey(key: string): Promise<number>;
  stop(): Promise<void>;
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port free for a node, with its cluster bus port (port + 10000) free too. */
async function nodePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await listens(port)) && (await listens(port + 10_000))) return port;
  }
}

/** Starts the cluster and resolves once every slot is served. */
export async function startTestRedisCluster(nodeTimeoutMs = 1_000): Promise<TestRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'console-test-cluster-'));
  const nodes = new Map<number, ChildProcess>();
  const ports: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const port = await nodePort();
    ports.push(port);
    // The options the shared test cluster uses, with the short node timeout.
    const child = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        String(nodeTimeoutMs),
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    nodes.set(port, child);
  }
  const stop = async () => {
    for (const child of nodes.values()) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      // Commands wait in the offline queue until the node listens, retried every 50 ms.
      const probe = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 50 });
      probe.on('error', () => undefined);
      try {
        await withinDeadline(probe.ping(), START_TIMEOUT_MS, () => {
          throw new Error(`redis-server on port ${port} did not start`);
        });
      } finally {
        probe.disconnect();
      }
    }
    const created = spawnSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { encoding: 'utf8' },
    );
    if (created.status !== 0)
      throw new Error(`redis-cli --cluster create failed: ${created.stdout}`);
    const admin = new Redis({ port: ports[0], host: '127.0.0.1' });
    try {
      const deadline = Date.now() + START_TIMEOUT_MS;
      for (;;) {
        if (Date.now() > deadline) throw new Error('the test cluster did not reach state ok');
        const info = String(await admin.call('CLUSTER', 'INFO'));
        if (info.includes('cluster_state:ok')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      admin.disconnect();
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `redis+cluster://${ports.map((port) => `127.0.0.1:${port}`).join(',')}`,
    ports,
    kill(port) {
      nodes.get(port)?.kill('SIGKILL');
    },
    async portOfKey(key) {
      const admin = new Redis({ port: ports[0], host: '127.0.0.1' });
      try {
        const slot = Number(await admin.call('CLUSTER', 'KEYSLOT', key));
        const ranges = (await admin.call('CLUSTER', 'SLOTS')) as Array<
          [number, number, [string, number]]
        >;
        const owner = ranges.find(([from, to]) => slot >= from && slot <= to);
        if (!owner) throw new Error(`no master holds slot ${slot}`);
        return Number(owner[2][1]);
      } finally {
        admin.disconnect();
      }
    },
    stop,
  };
}
