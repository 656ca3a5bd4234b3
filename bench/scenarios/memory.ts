// Scenario 8, memory: the console's resident memory after 100,000 proxied requests (cache off, so
// every request goes through the token manager, the upstream client and validation).
import { startConsole, startMockUpstream } from '../lib/console';
import { runLoad } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8776, console: 8777 };

export async function memoryScenario(ctx: BenchContext): Promise<Figure[]> {
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  const app = await startConsole(PORTS.console, mock.url, {
    EVENT_TYPES_CACHE_SECONDS: '0',
    ACCOUNT_MINUTE_LIMIT: '100000000',
    ACCOUNT_HOUR_LIMIT: '1000000000',
  });
  try {
    const amount = ctx.smoke ? 2_000 : 100_000;
    const before = app.rssMb();
    const load = await runLoad({
      url: `${app.url}/api/event-types`,
      connections: 32,
      amount,
      headers: app.apiHeaders,
    });
    if (load.non2xx || load.errors)
      throw new Error(`memory run: ${load.non2xx} non-2xx, ${load.errors} errors`);
    const after = app.rssMb();
    ctx.log(`  memory: ${amount} requests, RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`);
    return [
      figure('Memory', 'console RSS at start (signed in, idle)', before, 'MB'),
      figure(
        'Memory',
        `console RSS after ${amount.toLocaleString('en-US')} proxied requests`,
        after,
        'MB',
        { op: '<=', value: 150 },
      ),
    ];
  } finally {
    await app.stop();
    await mock.stop();
  }
}
