// Every route module's operations, in the order the document lists them. A new route module adds
// its `…Api` declaration here (one line); api-description.test.ts fails until it does.
import type { ApiModule } from './api-operation';
import { alertsApi } from '../routes/alerts';
import { apiDescriptionApi } from '../routes/api-description';
import { auditTrailApi } from '../routes/audit-trail';
import { dataSubjectsApi } from '../routes/data-subjects';
import { demoControlsApi } from '../routes/demo-controls';
import { eventTypesApi } from '../routes/event-types';
import { healthApi } from '../routes/health';
import {
  accountUsageApi,
  integrationAdminApi,
  integrationReportsApi,
} from '../routes/integrations';
import { metaApi } from '../routes/meta';
import { rateLimitsApi } from '../routes/rate-limits';
import { sessionApi } from '../routes/session';
import { signInLocksApi } from '../routes/sign-in-locks';

/** The console's API, module by module. */
export const API_MODULES: readonly ApiModule[] = [
  sessionApi,
  signInLocksApi,
  metaApi,
  healthApi,
  apiDescriptionApi,
  eventTypesApi,
  rateLimitsApi,
  dataSubjectsApi,
  auditTrailApi,
  alertsApi,
  integrationReportsApi,
  integrationAdminApi,
  accountUsageApi,
  demoControlsApi,
];
