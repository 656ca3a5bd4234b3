// Baseline (d) of the overhead benchmark: the plainest reverse proxy a team might write with a
// well-known library — forward /api/event-types to the upstream with a bearer token, validate
// nothing, transform nothing.
import { createServer } from 'node:http';
import httpProxy from 'http-proxy';

const upstream = process.env.PROXY_UPSTREAM ?? 'http://127.0.0.1:8788';
const token = process.env.PROXY_BEARER_TOKEN ?? '';
const port = Number(process.env.PROXY_PORT ?? 8786);

const proxy = httpProxy.createProxyServer({
  target: upstream,
  agent: new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 128 }),
});
proxy.on('proxyReq', (proxyReq) => proxyReq.setHeader('authorization', `Bearer ${token}`));
proxy.on('error', (_error, _req, res) => {
  if ('writeHead' in res) res.writeHead(502).end();
});

createServer((req, res) => {
  if (req.url === '/healthz') return void res.end('ok');
  // Same public path as the console, mapped onto the upstream operation.
  req.url = (req.url ?? '/').replace(/^\/api\/event-types/, '/api/audit/v4/audits/event-types');
  proxy.web(req, res);
}).listen(port, '127.0.0.1');
