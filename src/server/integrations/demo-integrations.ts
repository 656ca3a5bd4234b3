// Demo mode's integrations: the built-in mock's simulated other clients of the account
// (MOCK_BACKGROUND_RPM) appear as three named integrations that report through the real reporter
// package, into the real ingest route (in-process, so no port is needed). One of them can be made
// to burst until the mock's account-minute limit refuses it, so the incident it causes shows up
// attributed to it.
import { createReporter, type Reporter } from '../../../packages/reporter/src/index';
import {
  LIMIT_PATHS,
  PLATFORM_OPERATIONS,
  type PlatformOperation,
} from '../../shared/platform-operations';
import type { Logger } from '../observability/logger';
import { demoHistory, DEMO_HISTORY_NAMES } from './demo-history';
import type { IntegrationStore } from './integration-store';
import type { ReportAggregates } from './report-aggregates';

/** What the demo needs from the built-in mock. */
export interface DemoTrafficPort {
  /** Requests per minute the mock counts for other clients of the account. */
  readonly backgroundRpm: number;
  /** Fills the account's minute window, as a burst would. */
  exhaustAccountMinute(): void;
  /** One request of the bursting client through the mock's limits: its status and headers. */
  admit(): { status: number; headers: Record<string, string> };
  /** Requests the mock counted in the account's current minute window. */
  accountMinuteCount(): number;
}

/** An operation as a simulated integration calls it: method and path. */
const op = ({ method, path }: PlatformOperation) => [method, path] as const;

/** The simulated integrations and their share of the background traffic. */
const DEMO_INTEGRATIONS = [
  {
    name: DEMO_HISTORY_NAMES.nightly,
    owner: 'data-platform team',
    share: 0.6,
    operations: [
      op(PLATFORM_OPERATIONS.getDataSubjectProfilesV4),
      op(PLATFORM_OPERATIONS.getDataSubjectsUsingGET),
    ],
  },
  {
    name: DEMO_HISTORY_NAMES.preferences,
    owner: 'web team',
    share: 0.3,
    operations: [
      op(PLATFORM_OPERATIONS.getV3DatasubjectsProfileUsingGet),
      op(LIMIT_PATHS.consentReceipts),
    ],
  },
  {
    name: DEMO_HISTORY_NAMES.crm,
    owner: 'sales operations',
    share: 0.1,
    operations: [op(PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4)],
  },
] as const;

const TICK_MS = 5_000;

export interface DemoIntegrationsOptions {
  /** The connection whose mock the simulated clients call, so the one they report to. */
  readonly connection: string;
  readonly store: IntegrationStore;
  readonly reports: ReportAggregates;
  readonly traffic: DemoTrafficPort;
  readonly logger: Logger;
  readonly now?: () => number;
  /** One call of the console itself after a burst, so it meets the same block (as real use would). */
  readonly probe?: () => Promise<unknown>;
}

/** The running simulation. */
export class DemoIntegrations {
  readonly #options: DemoIntegrationsOptions;
  readonly #clients: Array<{
    id: string;
    name: string;
    reporter: Reporter;
    share: number;
    operations: ReadonlyArray<readonly string[]>;
    carry: number;
  }> = [];
  #timer: NodeJS.Timeout | undefined;
  #last = 0;

  constructor(options: DemoIntegrationsOptions) {
    this.#options = options;
  }

  /**
   * Registers the integrations (once per data directory: keys are rotated on each start, since
   * only their hashes were kept) and starts reporting through `send` (the console's ingest route).
   */
  async start(send: (url: string, init: RequestInit) => Promise<Response>): Promise<void> {
    const { store, reports } = this.#options;
    const now = this.#options.now ?? Date.now;
    // A data directory's first start: the integrations come with the week they reported before.
    const history = demoHistory(now());
    for (const spec of DEMO_INTEGRATIONS) {
      const existing = await store.findByName(spec.name);
      const issued = existing
        ? await store.rotate(existing.id)
        : await store.register(spec.name, spec.owner, this.#options.connection);
      if (!issued) continue;
      if (!existing)
        await reports.storeReport(issued.integration.id, history.get(spec.name) ?? [], []);
      this.#clients.push({
        id: issued.integration.id,
        name: spec.name,
        share: spec.share,
        operations: spec.operations,
        carry: 0,
        reporter: createReporter({
          consoleUrl: 'http://console.internal',
          key: issued.key,
          send,
          now,
          flushIntervalMs: TICK_MS,
          onError: (reason) => this.#options.logger.debug({ reason }, 'demo reporter'),
        }),
      });
    }
    this.#last = now();
    this.#timer = setInterval(() => this.#tick(), 1_000);
    this.#timer.unref();
  }

  /** The integrations that can be made to burst. */
  list(): Array<{ id: string; name: string }> {
    return this.#clients.map(({ id, name }) => ({ id, name }));
  }

  /** Each integration's share of the background requests since the last tick. */
  #tick(): void {
    const now = (this.#options.now ?? Date.now)();
    const elapsed = now - this.#last;
    this.#last = now;
    const rpm = this.#options.traffic.backgroundRpm;
    if (rpm <= 0 || elapsed <= 0) return;
    for (const client of this.#clients) {
      const due = (rpm * client.share * elapsed) / 60_000 + client.carry;
      const whole = Math.floor(due);
      client.carry = due - whole;
      client.operations.forEach(([method, path], index) => {
        const count =
          Math.floor(whole / client.operations.length) +
          (index === 0 ? whole % client.operations.length : 0);
        if (count > 0)
          client.reporter.record({ method: method ?? 'GET', url: path ?? '/', status: 200, count });
      });
    }
  }

  /**
   * The integration sends what is left of the account's minute, then one more request, which the
   * mock refuses with a 429 (and blocks the account: the console's next call meets the same
   * block). Its reporter reports both at once.
   */
  async burst(id: string): Promise<{ status: number | null }> {
    const client = this.#clients.find((candidate) => candidate.id === id);
    if (!client) return { status: null };
    const { traffic } = this.#options;
    const before = traffic.accountMinuteCount();
    traffic.exhaustAccountMinute();
    const sent = Math.max(0, traffic.accountMinuteCount() - before);
    const [method, path] = client.operations[0] ?? ['GET', '/'];
    if (sent > 0)
      client.reporter.record({
        method: method ?? 'GET',
        url: path ?? '/',
        status: 200,
        count: sent,
      });
    const answer = traffic.admit();
    client.reporter.record({
      method: method ?? 'GET',
      url: path ?? '/',
      status: answer.status,
      headers: answer.headers,
    });
    await client.reporter.flush();
    await this.#options.probe?.().catch(() => undefined);
    return { status: answer.status };
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all(this.#clients.map((client) => client.reporter.close()));
  }
}
