// What the integrations area hands its HTTP routes: the area's parts, and the demo's burst hook.
// It lives with the area, not the routes, so the area never imports up into the HTTP edge.
import type { Logger } from '../observability/logger';
import type { AccountUsage } from './account-usage';
import type { WebSettings } from '../security/web-settings';
import type { FailedKeyGuard } from './failed-key-guard';
import type { IngestLimiter } from './ingest-limiter';
import type { IntegrationStore } from './integration-store';

/** Demo mode: make one simulated integration burst until it draws a 429. */
export interface DemoBurstPort {
  burst(integrationId: string): Promise<{ status: number | null }>;
}

export interface IntegrationsRoutesDeps {
  readonly store: IntegrationStore;
  readonly usage: AccountUsage;
  readonly limiter: IngestLimiter;
  /** Wrong keys per client address, and the early refusal past their bound. */
  readonly failedKeys: FailedKeyGuard;
  readonly web: WebSettings;
  readonly logger: Logger;
  readonly now: () => number;
  /** How far back a report entry may be (the retention). */
  readonly retentionMs: number;
  readonly demo?: DemoBurstPort;
}
