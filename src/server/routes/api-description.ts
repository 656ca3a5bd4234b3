// GET /api/openapi.json: the console's own API description (api-description/), for any signed-in
// role. Teams scripting the console and security scanners read it; it names no secret.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../http/app-env';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import type { OpenApiDocument } from '../api-description/openapi-document';

/** The description route, mounted at /api/openapi.json; the document is built on first use. */
export function apiDescriptionRoutes(document: () => OpenApiDocument) {
  let body: string | undefined;
  return new Hono<AppEnv>().get('/', (c) => {
    body ??= JSON.stringify(document());
    return c.body(body, 200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'private, no-cache',
    });
  });
}

/** This route in the console's API description. */
export const apiDescriptionApi: ApiModule = {
  base: '/api/openapi.json',
  tag: { name: 'Console', description: 'The console’s own state: health, mode, API description.' },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'getApiDescription',
      summary: 'This OpenAPI 3.1 document',
      description: 'Also in the repository as docs/openapi.json (`npm run openapi` writes it).',
      access: { session: ANY_ROLE },
      responses: {
        200: {
          description: 'The document.',
          schema: z.looseObject({
            openapi: z.string(),
            info: z.looseObject({}),
            paths: z.looseObject({}),
          }),
        },
      },
    },
  ],
};
