// The request log as an operator reads it: integrations reporting every few seconds do not bury a
// person's requests, while their refusals and failures still show.
import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../http/app-env';
import { createLogger } from './logger';
import { requestLogging } from './request-logging';

function appWithLog() {
  const lines: Array<{ level: number; route: string; status: number }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line));
      callback();
    },
  });
  const app = new Hono<AppEnv>()
    .use(
      requestLogging(createLogger('info', destination), {
        publicOrigin: undefined,
        trustProxy: false,
      }),
    )
    .post('/api/integrations/reports', (c) =>
      c.req.header('authorization') ? c.body(null, 202) : c.body(null, 401),
    )
    .get('/api/event-types', (c) => c.json({ items: [] }));
  return { app, lines };
}

describe('request logging', () => {
  it('keeps accepted integration reports out of the info log, but not refusals', async () => {
    const { app, lines } = appWithLog();
    for (let i = 0; i < 5; i += 1) {
      await app.request('/api/integrations/reports', {
        method: 'POST',
        headers: { authorization: 'Bearer k' },
      });
    }
    await app.request('/api/integrations/reports', { method: 'POST' });
    await app.request('/api/event-types');
    expect(lines.map((line) => [line.route, line.status])).toEqual([
      ['/api/integrations/reports', 401],
      ['/api/event-types', 200],
    ]);
  });
});
