// Stoplight Prism as a validating proxy (`prism proxy <description> <upstream> --errors`) in a
// child process, for tests that hold the console's requests and the mock's answers to an OpenAPI
// description with a validator nobody on this project wrote. Prism answers a request that breaks
// the description with 422, an answer that breaks it with 500 (both problem+json), and reports
// lesser breaks in an `sl-violations` header; every break is also a line of its log.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TransportResponse } from '../upstream/http-transport';
import { freePort } from './free-port';

/** A running Prism proxy. */
export interface PrismProxy {
  readonly url: string;
  /** Everything Prism logged so far. */
  log(): string;
  /**
   * Prism's log once the lines of every request answered so far are in it: Prism writes its log
   * in order, so this sends a marked request of its own (to `path`, any operation of the
   * description; the mark travels in a query parameter no operation declares) and waits for the
   * mark to be logged.
   */
  settledLog(path: string): Promise<string>;
  /** Stops the process; resolves once it has exited. */
  close(): Promise<void>;
}

/** One break of the description, as Prism words it. */
export interface PrismViolation {
  /** `request` when the console's request broke it, `answer` when the upstream's answer did. */
  readonly side: 'request' | 'answer';
  readonly message: string;
}

// Prism loads and compiles the description before it listens: seconds on a quiet machine, much
// longer on a loaded one.
const START_TIMEOUT_MS = 120_000;

function prismBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
}

/** Starts `prism proxy description upstream --errors` on a free loopback port. */
export async function startPrismProxy(description: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      prismBin(),
      'proxy',
      description,
      upstream,
      '--errors',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } },
  );
  let output = '';
  const waiters = new Set<() => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Prism did not start in time:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const wake of waiters) wake();
      if (/Prism is listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`Prism exited at start:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => output,
    async settledLog(path) {
      const mark = `log-mark-${randomUUID()}`;
      const logged = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`Prism did not log ${mark}`));
        }, 30_000);
        const wake = () => {
          if (!output.includes(mark)) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
      const response = await fetch(`http://127.0.0.1:${port}${path}?log-mark=${mark}`, {
        headers: { authorization: 'Bearer log-mark' },
      });
      await response.arrayBuffer();
      await logged;
      return output;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        // A proxy stuck in a long request must not hold the suite: cut it after a grace period.
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }
      await exited;
    },
  };
}

const PRISM_PROBLEM = 'https://stoplight.io/prism/errors#';

interface PrismProblem {
  readonly type?: unknown;
  readonly title?: unknown;
  readonly validation?: ReadonlyArray<{ readonly message?: unknown }>;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Every break of the description Prism reported on one answer it passed on (or made itself). */
export function prismViolations(response: TransportResponse): PrismViolation[] {
  const found: PrismViolation[] = [];
  const header = headerText(response.headers['sl-violations']);
  if (header) {
    // "Too many violations! [...]" when Prism shortened the list.
    const list = header.slice(Math.max(0, header.indexOf('[')));
    try {
      for (const each of JSON.parse(list) as Array<{ message?: unknown }>) {
        found.push({ side: 'answer', message: String(each.message) });
      }
    } catch {
      found.push({ side: 'answer', message: header.slice(0, 300) });
    }
  }
  if (/problem\+json/i.test(headerText(response.headers['content-type']) ?? '')) {
    let problem: PrismProblem | undefined;
    try {
      problem = JSON.parse(response.body) as PrismProblem;
    } catch {
      problem = undefined;
    }
    if (typeof problem?.type === 'string' && problem.type.startsWith(PRISM_PROBLEM)) {
      const side = problem.type.endsWith('UNPROCESSABLE_ENTITY') ? 'request' : 'answer';
      const messages = problem.validation?.map((each) => String(each.message)) ?? [];
      for (const message of messages.length ? messages : [String(problem.title)]) {
        found.push({ side, message });
      }
    }
  }
  return found;
}

/** The lines of Prism's log that report a break of the description or a failed request. */
export function prismLogViolations(log: string): string[] {
  return log.split('\n').filter((line) => /Violation:|✖/.test(line));
}
