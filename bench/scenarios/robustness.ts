// Scenario 9, robustness at npm start's heap settings: the largest event-types answer the console
// accepts (UPSTREAM_MAX_ANSWER_BYTES) processed without a crash, with one byte more refused by a
// 502 naming the limit while the process stays up. (Memory over many requests is the memory
// scenario's.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../src/server/upstream/http-transport';
import { startConsole } from '../lib/console';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

// Clear of the console's and the mock's default ports (8787, 8788), so a console left running does
// not take the benchmark's place.
const PORTS = { console: 8771, large: 8772 };

export async function robustnessScenario(ctx: BenchContext): Promise<Figure[]> {
  return largestAnswer(ctx);
}

/** An upstream whose event-types answer is exactly `bytes` long, of valid event types. */
async function largeUpstream(bytes: number): Promise<{ url: string; close(): Promise<void> }> {
  const item = (n: number) =>
    JSON.stringify({
      code: n,
      value: `EVENT_${n}`,
      objectTypeName: `Object type ${n % 97}`,
      moduleName: `Module ${n % 13}`,
    });
  const parts: string[] = [];
  let length = 2;
  for (let n = 0; ; n += 1) {
    const next = item(n);
    if (length + next.length + 1 > bytes) break;
    parts.push(next);
    length += next.length + 1;
  }
  let body = `[${parts.join(',')}]`;
  // Pad with spaces (still valid JSON) to the exact size.
  body = body.slice(0, -1) + ' '.repeat(bytes - Buffer.byteLength(body)) + ']';
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/api/access/v1/oauth/token')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'bench-token', expires_in: 3600 }));
      return;
    }
    const size = req.url?.includes('objectTypes=one-more') ? bytes + 1 : bytes;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(size === bytes ? body : `${body} `);
  });
  await new Promise<void>((resolve) => server.listen(PORTS.large, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function largestAnswer(ctx: BenchContext): Promise<Figure[]> {
  const bytes = DEFAULT_MAX_ANSWER_BYTES;
  const upstream = await largeUpstream(bytes);
  const app = await startConsole(PORTS.console, upstream.url, { EVENT_TYPES_CACHE_SECONDS: '0' });
  try {
    const rounds = ctx.smoke ? 1 : 5;
    let served = 0;
    let peak = 0;
    for (let round = 0; round < rounds; round += 1) {
      // Two at once: the console parses both answers side by side.
      const answers = await Promise.all(
        [0, 1].map(() => fetch(`${app.url}/api/event-types`, { headers: app.apiHeaders })),
      );
      for (const answer of answers) {
        await answer.arrayBuffer();
        if (answer.status === 200) served += 1;
      }
      peak = Math.max(peak, app.rssMb());
    }
    const over = await fetch(`${app.url}/api/event-types?objectTypes=one-more`, {
      headers: app.apiHeaders,
    });
    const problem = (await over.json()) as { limitBytes?: number };
    const alive = (await fetch(`${app.url}/healthz`)).status === 200;
    ctx.log(
      `  robustness: ${served}/${rounds * 2} answers of ${(bytes / 1048576).toFixed(0)} MB served, peak RSS ${peak.toFixed(0)} MB; one byte more: ${over.status} (limit ${problem.limitBytes}), alive ${alive}`,
    );
    return [
      figure(
        'Robustness',
        `largest accepted event-types answer (${(bytes / 1048576).toFixed(0)} MB), two at a time: answers not served`,
        rounds * 2 - served + (alive ? 0 : 1) + (over.status === 502 ? 0 : 1),
        'failures',
        { op: '<=', value: 0 },
      ),
      figure('Robustness', 'console peak RSS while serving those answers', peak, 'MB'),
    ];
  } finally {
    await app.stop();
    await upstream.close();
  }
}
