// `GET /api/connections`: the platform connections the signed-in person has a role in, with their
// role in each, for the header's connection switcher. Console-wide, for anyone signed in.
import { Hono } from 'hono';
import {
  ConnectionListSchema,
  type ConnectionList,
  type ConnectionSummary,
} from '../../shared/connections';
import type { ConnectionConfig } from '../config/connection-config';
import type { ApiModule } from '../http/api-operation';
import type { AppEnv } from '../http/app-env';
import { signedOutProblem } from '../http/auth-problems';
import { NO_STORE } from '../http/no-store';

/** The routes, mounted at /api/connections behind requireSession. */
export function connectionsRoutes(
  connections: readonly Pick<ConnectionConfig, 'name' | 'label' | 'colour'>[],
) {
  return new Hono<AppEnv>().get('/', (c) => {
    const user = c.get('user');
    if (!user) throw signedOutProblem();
    // Only the person's own: a connection they have no role in is not shown, not even by name.
    const theirs = connections.flatMap(({ name, label, colour }): ConnectionSummary[] => {
      const role = Object.hasOwn(user.roles, name) ? user.roles[name] : undefined;
      return role ? [{ name, label, colour, role }] : [];
    });
    return c.json<ConnectionList>({ connections: theirs }, 200, NO_STORE);
  });
}

/** These routes in the console's API description (api-description/). */
export const connectionsApi: ApiModule = {
  base: '/api/connections',
  tag: {
    name: 'Connections',
    description: 'The platform connections (accounts) this console serves, and your role in each.',
  },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listConnections',
      summary: 'Your connections',
      description:
        'The connections you have a role in, in the order the switcher shows them, with your role in each. Answered to anyone signed in, including a person with roles in named connections only.',
      access: { signedIn: true },
      responses: {
        200: { description: 'Your connections and roles.', schema: ConnectionListSchema },
      },
    },
  ],
};
