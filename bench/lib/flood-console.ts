// A console for the incident-flood bar: the real BFF (composed as index.ts does, live mode, the
// embedded store under DATA_DIR) that also records FLOOD_PER_MINUTE distinct 429 incidents a
// minute through its own recorder, as an upstream throttling many operations would make it.
// Reaching that rate through real 429s is impossible: each one blocks its scope for at least 1 s.
import { randomUUID } from 'node:crypto';
import { parseConfig } from '../../src/server/config/config';
import { composeBff } from '../../src/server/compose';
import { createLogger } from '../../src/server/observability/logger';
import { createConsoleServer } from '../../src/server/http-server';
import { openDatabase } from '../../src/server/store/database';

const config = parseConfig(process.env);
const database = await openDatabase({ dataDir: config.dataDir });
const bff = composeBff({
  config,
  logger: createLogger('warn'),
  upstreamBaseUrl: config.upstream.baseUrl ?? '',
  database,
});
await bff.ready();
const server = createConsoleServer({ fetch: bff.app.fetch, hostname: config.host });
server.listen(config.port, config.host);

const perMinute = Number(process.env.FLOOD_PER_MINUTE ?? 0);
if (perMinute > 0) {
  setInterval(() => {
    void bff.rateLimiting.recorder.record(
      {
        eventId: randomUUID(),
        period: 'MINUTE',
        requestsAllowed: 1_000,
        requestsMade: 1_001,
        retryAfterSeconds: 1,
        blockSeconds: 1,
        rule: null,
        scope: 'account',
        flags: [],
        headers: { 'retry-after': '1' },
      },
      'event-types',
    );
  }, 60_000 / perMinute);
}
