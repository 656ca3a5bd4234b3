// GET /api/meta: what the SPA needs to know about the console it talks to (mode, tier, demo
// controls, the facts the support text quotes); every signed-in role.
import { Hono } from 'hono';
import { ConsoleMetaSchema, type ConsoleMeta } from '../../shared/console-meta';
import type { AppEnv } from '../http/app-env';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import { NO_STORE } from '../http/no-store';

/** The meta route, mounted at /api/meta. */
export function metaRoutes(meta: ConsoleMeta) {
  return new Hono<AppEnv>().get('/', (c) => c.json(meta, 200, NO_STORE));
}

/** This route in the console's API description (api-description/). */
export const metaApi: ApiModule = {
  base: '/api/meta',
  tag: { name: 'Console', description: 'The console’s own state: health, mode, API description.' },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'getMeta',
      summary: 'The console’s mode, account tier and support facts',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'What the console is.', schema: ConsoleMetaSchema } },
    },
  ],
};
