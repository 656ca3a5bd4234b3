// GET /api/health: the console's own health for the banner every page shows (any signed-in role).
// Load balancers use /readyz instead; this answer carries no internal detail.
import { Hono } from 'hono';
import { ConsoleHealthSchema, type ConsoleHealth } from '../../shared/console-health';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import type { AppEnv } from '../http/app-env';
import { NO_STORE } from '../http/no-store';

/** The health route, mounted at /api/health. */
export function healthRoutes(check: () => Promise<ConsoleHealth>) {
  return new Hono<AppEnv>().get('/', async (c) => c.json(await check(), 200, NO_STORE));
}

/** This route in the console's API description (api-description/). */
export const healthApi: ApiModule = {
  base: '/api/health',
  tag: { name: 'Console', description: 'The console’s own state: health, mode, API description.' },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'getHealth',
      summary: 'The console’s health, for the banner on every page',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'The console’s health.', schema: ConsoleHealthSchema } },
    },
  ],
};
