// The one-way import zones of docs/architecture.md are enforced by ESLint: a wrong arrow is an error,
// a right one is not. Lints small snippets as if they lived at the given paths.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function boundaryErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/dependencies').length;
}

// The first lint loads the whole ESLint configuration (the TypeScript parser and the zone plugin):
// seconds on a busy machine, so the default 5 s per test is too tight for the first case.
describe('import zones', { timeout: 30_000 }, () => {
  it.each([
    [
      'shared importing the server',
      'src/shared/zone-check.ts',
      "import { loadConfig } from '../server/config/config';\nexport const x = loadConfig;\n",
    ],
    [
      'the server importing the mock statically',
      'src/server/zone-check.ts',
      "import { generateEventTypes } from '../mocks/data/event-types';\nexport const x = generateEventTypes;\n",
    ],
    [
      'lib importing a feature',
      'src/lib/zone-check.ts',
      "import { EventTypesPage } from '../features/event-types/components/event-types-page';\nexport const x = EventTypesPage;\n",
    ],
    [
      'a feature importing another feature',
      'src/features/event-types/zone-check.ts',
      "import { RateLimitsPage } from '../rate-limits/components/rate-limits-page';\nexport const x = RateLimitsPage;\n",
    ],
    [
      'the mock importing the server',
      'src/mocks/zone-check.ts',
      "import { parseConfig } from '../server/config/config';\nexport const x = parseConfig;\n",
    ],
    [
      'a server store importing an area (the database reading the rate-limits area)',
      'src/server/store/zone-check.ts',
      "import { readRateLimitHeaders } from '../rate-limits/read-rate-limit-headers';\nexport const x = readRateLimitHeaders;\n",
    ],
    [
      'the upstream client importing the 429 handling of the rate-limits area',
      'src/server/upstream/zone-check.ts',
      "import { createUpstreamGuard } from '../rate-limits/upstream-guard';\nexport const x = createUpstreamGuard;\n",
    ],
    [
      'the governor importing the incidents it no longer records itself',
      'src/server/governor/zone-check.ts',
      "import { IncidentHub } from '../rate-limits/incident-hub';\nexport const x = IncidentHub;\n",
    ],
    [
      'a base file of the runtime importing an area',
      'src/server/runtime/within-deadline.ts',
      "import { AlertStore } from '../alerts/alert-store';\nexport const x = AlertStore;\n",
    ],
    [
      'configuration importing an area',
      'src/server/config/zone-check.ts',
      "import { AlertStore } from '../alerts/alert-store';\nexport const x = AlertStore;\n",
    ],
    [
      'infrastructure importing the composition root',
      'src/server/runtime/zone-check.ts',
      "import { composeBff } from '../compose';\nexport const x = composeBff;\n",
    ],
    [
      'an area importing the composition root',
      'src/server/alerts/zone-check.ts',
      "import { createApp } from '../app';\nexport const x = createApp;\n",
    ],
    [
      'an area importing the HTTP edge',
      'src/server/integrations/zone-check.ts',
      "import { metaRoutes } from '../routes/meta';\nexport const x = metaRoutes;\n",
    ],
    [
      'an area importing an area it has no named arrow to',
      'src/server/rate-limits/zone-check.ts',
      "import { AlertStore } from '../alerts/alert-store';\nexport const x = AlertStore;\n",
    ],
    [
      'an area importing the internals of another (alerts reading the incident hub)',
      'src/server/alerts/zone-check.ts',
      "import { IncidentHub } from '../rate-limits/incident-hub';\nexport const x = IncidentHub;\n",
    ],
    [
      'the planning area importing the integrations area’s reader of reported minutes (it gets the port from the composition root)',
      'src/server/planning/zone-check.ts',
      "import { ReportedMinutesReader } from '../integrations/reported-minutes-reader';\nexport const x = ReportedMinutesReader;\n",
    ],
  ])('refuses %s', async (_, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toBe(1);
  });

  it.each([
    [
      'a feature importing lib and shared',
      'src/features/event-types/zone-check.ts',
      "import { apiRequest } from '../../lib/api-client';\nimport { PROBLEM_TYPES } from '../../shared/problem';\nexport const x = [apiRequest, PROBLEM_TYPES];\n",
    ],
    [
      'the server importing shared',
      'src/server/zone-check.ts',
      "import { PROBLEM_TYPES } from '../shared/problem';\nexport const x = PROBLEM_TYPES;\n",
    ],
    [
      'an area importing itself and infrastructure',
      'src/server/alerts/zone-check.ts',
      "import { createLogger } from '../observability/logger';\nimport { Governor } from '../governor/governor';\nimport { AlertStore } from './alert-store';\nexport const x = [createLogger, Governor, AlertStore];\n",
    ],
    [
      'the HTTP edge importing an area',
      'src/server/routes/zone-check.ts',
      "import { createRateLimiting } from '../rate-limits/rate-limiting';\nexport const x = createRateLimiting;\n",
    ],
    [
      'the composition root importing an area',
      'src/server/zone-check.ts',
      "import { rateLimitsRoutes } from './rate-limits/rate-limits-routes';\nexport const x = rateLimitsRoutes;\n",
    ],
    [
      'the composition root importing the integrations area’s reader of reported minutes for the planning area and its replay thread',
      'src/server/replay-thread.ts',
      "import { ReportedMinutesReader } from './integrations/reported-minutes-reader';\nimport { serveReplayJob } from './planning/replay-worker';\nexport const x = [ReportedMinutesReader, serveReplayJob];\n",
    ],
    [
      'the server loading the mock dynamically (demo mode)',
      'src/server/zone-check.ts',
      "export const load = () => import('../mocks/demo-upstream');\n",
    ],
  ])('allows %s', async (_, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toBe(0);
  });
});

async function environmentReads(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-properties').length;
}

// Who may read the environment (docs/architecture.md): the console's config, the mock's config
// and the demo identity provider; every other source file is refused, destructuring included.
describe('environment readers', { timeout: 30_000 }, () => {
  const read = 'export const port = process.env.PORT;\n';
  it.each([
    ['an area', 'src/server/alerts/zone-check.ts', read],
    ['an operator command', 'src/server/cli/zone-check.ts', read],
    ['the composition root', 'src/server/zone-check.ts', read],
    ['the SPA', 'src/features/event-types/zone-check.ts', read],
    [
      'an area, by destructuring',
      'src/server/planning/zone-check.ts',
      'const { env } = process;\nexport const port = env.PORT;\n',
    ],
  ])('refuses %s reading process.env', async (_, filePath, code) => {
    expect(await environmentReads(filePath, code)).toBe(1);
  });

  it.each([
    ['the console’s config', 'src/server/config/config.ts'],
    ['the mock platform’s config', 'src/mocks/config.ts'],
    ['a test', 'src/server/alerts/zone-check.test.ts'],
  ])('allows %s to read it', async (_, filePath) => {
    expect(await environmentReads(filePath, read)).toBe(0);
  });
});
