// The addresses where scanners, client generators and people look for an API description by habit. They are not client
// routes of the SPA, so they answer a 404 problem naming where the description really is, instead
// of the app's HTML page with 200 (which a scanner would take for a description it cannot read).
import type { Hono } from 'hono';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { problemResponse } from '../http/problem';

/** Common description paths outside /api (under /api, the API's own 404 answers). */
export const DESCRIPTION_PATHS = [
  '/openapi.json',
  '/openapi.yaml',
  '/openapi',
  '/swagger.json',
  '/swagger.yaml',
  '/swagger',
  '/swagger-ui',
  '/swagger-ui.html',
  '/docs',
  '/api-docs',
  '/redoc',
  '/v2/api-docs',
  '/v3/api-docs',
] as const;

/** Answers every description path (and anything below it) with the 404 problem. */
export function answerDescriptionPaths(app: Hono<AppEnv>): void {
  for (const path of DESCRIPTION_PATHS) {
    for (const pattern of [path, `${path}/*`]) {
      app.all(pattern, (c) =>
        problemResponse(c, {
          type: PROBLEM_TYPES.notFound,
          title: 'No API description here',
          status: 404,
          detail:
            'The console’s API description is at /api/openapi.json (signed in); its problem types are explained at /problems.',
        }),
      );
    }
  }
}
