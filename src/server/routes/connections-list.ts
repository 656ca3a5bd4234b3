// GET /api/connections: the platform connections the signed-in person may switch between, in the
// configured order (the first is where old addresses lead), each with their role in it.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { ConnectionSummarySchema, type ConnectionSummary } from '../../shared/connections';
import type { AppEnv } from '../http/app-env';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import { NO_STORE } from '../http/no-store';

/** A connection as the header shows it: everything but the person's role. */
export type ConnectionLabel = Omit<ConnectionSummary, 'role'>;

/**
 * The connections route, mounted at /api/connections. Every role holds its console-wide role in
 * every connection until roles per connection exist; requireSession has set the user.
 */
export function connectionsListRoutes(connections: readonly ConnectionLabel[]) {
  return new Hono<AppEnv>().get('/', (c) => {
    const role = c.get('user')?.role;
    const listed: ConnectionSummary[] = role
      ? connections.map((connection) => ({ ...connection, role }))
      : [];
    return c.json(listed, 200, NO_STORE);
  });
}

/** This route in the console's API description (api-description/). */
export const connectionsListApi: ApiModule = {
  base: '/api/connections',
  tag: {
    name: 'Connections',
    description: 'The platform accounts this console serves, and the person’s role in each.',
  },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listConnections',
      summary: 'The connections the person has a role in, first one first',
      access: { session: ANY_ROLE },
      responses: {
        200: {
          description: 'Name, label, colour and the person’s role, in the configured order.',
          schema: z.array(ConnectionSummarySchema),
        },
      },
    },
  ],
};
