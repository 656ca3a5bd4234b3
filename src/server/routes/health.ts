// GET /api/health: the console's own health for the banner every page shows (any signed-in role).
// Load balancers use /readyz instead; this answer carries no internal detail.
import { Hono } from 'hono';
import type { ConsoleHealth } from '../../shared/console-health';
import type { AppEnv } from '../app-env';

/** The health route, mounted at /api/health. */
export function healthRoutes(check: () => Promise<ConsoleHealth>) {
  return new Hono<AppEnv>().get('/', async (c) =>
    c.json(await check(), 200, { 'Cache-Control': 'private, no-store' }),
  );
}
