// The alert pipeline (store, dispatcher, service) on one database and an injected clock, with timers
// that never fire by themselves, for the tests of alerts (tests only).
import {
  AlertDispatcher,
  type AlertDispatcherOptions,
  type AlertScheduler,
} from '../alerts/alert-dispatcher';
import { AlertService, type AlertServiceOptions } from '../alerts/alert-service';
import { AlertStore } from '../alerts/alert-store';
import { createLogger } from '../observability/logger';
import type { SqlDatabase } from '../store/database';

/** Timers that never fire by themselves: tests call runDue() at the moments they choose. */
export const MANUAL_SCHEDULER: AlertScheduler = { setTimeout: () => 0, clearTimeout: () => {} };

/**
 * A silent store, dispatcher and service on `db`, reading `clock.now`; `delivery` sets how the
 * dispatcher sends (its HTTP options, attempts and back-off).
 */
export function alertPipeline(
  db: () => Promise<SqlDatabase>,
  clock: { now: number },
  delivery: Pick<AlertDispatcherOptions, 'http' | 'maxAttempts' | 'retryBaseMs'>,
  /** The service's logger (to read what it says), its audit queue's bound and its links' origin. */
  serviceOptions: Pick<AlertServiceOptions, 'logger' | 'auditQueueMax' | 'publicOrigin'> = {},
) {
  const store = new AlertStore(db);
  const now = () => clock.now;
  const dispatcher = new AlertDispatcher({
    store,
    logger: createLogger('silent'),
    now,
    scheduler: MANUAL_SCHEDULER,
    ...delivery,
  });
  const service = new AlertService({ store, dispatcher, now, ...serviceOptions });
  return { store, dispatcher, service };
}
