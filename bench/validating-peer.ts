// Peer (e) of the overhead benchmark: the smallest backend-for-frontend a competent team would
// write with the same libraries as the console (Hono, undici, zod) to do the console's work on
// this path: fetch the event types with a bearer token, parse the answer, validate it with the
// shared schema, answer JSON. It shares nothing with the console but that schema: no cache, no
// governor, no sessions, no deadlines, no audit; what it costs is what checking the answer costs.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { Agent, request } from 'undici';
import { UpstreamEventTypesSchema } from '../src/shared/event-types';

const upstream = process.env.PEER_UPSTREAM ?? 'http://127.0.0.1:8788';
const token = process.env.PEER_BEARER_TOKEN ?? '';
const port = Number(process.env.PEER_PORT ?? 8784);
const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000 });

const app = new Hono();
app.get('/healthz', (c) => c.text('ok'));
app.get('/api/event-types', async (c) => {
  const answer = await request(`${upstream}/api/audit/v4/audits/event-types`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    dispatcher: agent,
  });
  if (answer.statusCode !== 200) {
    await answer.body.dump();
    return c.json({ error: `upstream answered ${answer.statusCode}` }, 502);
  }
  const parsed = UpstreamEventTypesSchema.safeParse(await answer.body.json());
  if (!parsed.success) return c.json({ error: 'the upstream answer is not a list' }, 502);
  return c.json({ items: parsed.data, fetchedAt: new Date().toISOString() });
});

serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
