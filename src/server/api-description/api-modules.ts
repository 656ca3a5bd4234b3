// Every route module's operations, in the order the document lists them. A new route module adds
// its `…Api` declaration here (one line); api-description.test.ts fails until it does.
import type { ApiModule } from '../http/api-operation';
import { alertsApi } from '../alerts/alerts-routes';
import { apiDescriptionApi } from '../routes/api-description';
import { auditTrailApi } from '../data-subjects/audit/audit-trail-routes';
import { accountabilityApi } from '../data-subjects/audit/accountability-routes';
import { adminChangesApi } from '../data-subjects/audit/admin-changes-routes';
import { dataSubjectsApi } from '../data-subjects/data-subjects-routes';
import { demoControlsApi } from '../demo/demo-controls-routes';
import { eventTypesApi } from '../event-types/event-types-routes';
import { healthApi } from '../routes/health';
import {
  accountUsageApi,
  integrationAdminApi,
  integrationReportsApi,
} from '../integrations/integrations-routes';
import { metaApi } from '../routes/meta';
import { planningApi } from '../planning/planning-routes';
import { rateLimitsApi } from '../rate-limits/rate-limits-routes';
import { rateLimitOverviewApi } from '../rate-limits/overview-routes';
import { connectionsApi } from '../auth/connections-routes';
import { consoleSessionsApi } from '../auth/console-sessions-routes';
import { sessionApi } from '../auth/session-routes';
import { signInLocksApi } from '../auth/sign-in-lock-routes';
import { tokensApi } from '../auth/token-routes';

/** The console's API, module by module. */
export const API_MODULES: readonly ApiModule[] = [
  sessionApi,
  signInLocksApi,
  consoleSessionsApi,
  tokensApi,
  connectionsApi,
  metaApi,
  healthApi,
  apiDescriptionApi,
  eventTypesApi,
  rateLimitsApi,
  rateLimitOverviewApi,
  dataSubjectsApi,
  auditTrailApi,
  accountabilityApi,
  adminChangesApi,
  alertsApi,
  integrationReportsApi,
  integrationAdminApi,
  accountUsageApi,
  planningApi,
  demoControlsApi,
];
