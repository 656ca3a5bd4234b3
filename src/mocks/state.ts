// Everything the mock upstream remembers between requests, in one object per mock instance, so
// tests, demo mode and the standalone server each get an isolated, resettable upstream.
import type { DataSubjectOperation } from '../shared/data-subject-operations';
import type { EventType } from '../shared/event-types';
import { createDataSubjectStore, type DataSubjectStore } from './data-subject-store';
import { DEFAULT_EVENT_TYPE_COUNT, generateEventTypes } from './data/event-types';
import { createEventTypeStore, type EventTypeStore } from './event-type-store';
import { createFaultQueue, type FaultHit, type FaultSpec, type PendingFault } from './faults';
import { DEFAULT_KNOWN_SCOPES, MOCK_OPERATIONS, type MockOperation } from './operations';
import { createTokenStore, type IssuedToken, type TokenCheck } from './token-store';

/** Client id the mock accepts unless told otherwise (demo mode's default credentials). */
export const DEFAULT_MOCK_CLIENT_ID = 'demo-client';
/** Client secret the mock accepts unless told otherwise. */
export const DEFAULT_MOCK_CLIENT_SECRET = 'demo-secret';
/** Token lifetime unless told otherwise; the platform's documentation (docs/platform-contract.md) does not give one. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3_600;

/**
 * Decides whether the upstream refuses a request before it is served, e.g. with a 429. This is
 * where the rate-limit windows of docs/rate-limit-model.md plug in: they return a 429 hit with the
 * `ot-*` headers while the account is over a limit or blocked, and `undefined` otherwise.
 */
export type AdmissionCheck = (operation: MockOperation, now: number) => FaultHit | undefined;

/** Options of {@link createMockState}; every one has a default. */
export interface MockStateOptions {
  /** The mock's clock in epoch milliseconds (default `Date.now`); tests move it instead of sleeping. */
  readonly now?: () => number;
  /** How an injected `delayMs` is waited out (default a timer); tests may resolve it at once. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly tokenTtlSeconds?: number;
  /** How many generated event types to serve (default {@link DEFAULT_EVENT_TYPE_COUNT}). */
  readonly eventTypeCount?: number;
  /** A data set to serve instead of the generated one. */
  readonly eventTypes?: readonly EventType[];
  /** Scopes the token endpoint grants; others are refused (default `ACTIVITY_LOG` only). */
  readonly knownScopes?: readonly string[];
  /** Extra admission rule run after the fault queue; see {@link AdmissionCheck}. */
  readonly admission?: AdmissionCheck;
  /** The data-subject catalog to serve (default the built-in one; demo mode passes the console's). */
  readonly dataSubjectOperations?: readonly DataSubjectOperation[];
}

/** Counters a test or benchmark reads to see what reached the upstream. */
export interface MockStats {
  /** Requests to the token endpoint, successful or not. */
  readonly tokenRequests: number;
  /** Tokens actually issued. */
  readonly tokensIssued: number;
  /** Requests received per operation, including refused and faulted ones. */
  readonly requests: Readonly<Record<MockOperation, number>>;
  /** Requests an injected fault (or the admission check) applied to, slow 2xx ones included. */
  readonly faultsServed: number;
  /** Injected faults still waiting for a request. */
  readonly pendingFaults: number;
}

/** One mock upstream's state; see {@link createMockState}. */
export interface MockState {
  now(): number;
  sleep(ms: number): Promise<void>;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tokenTtlSeconds: number;
  readonly knownScopes: readonly string[];
  /** The event types served, with their cached JSON answers. */
  readonly eventTypes: EventTypeStore;
  /** The data-subject catalog served, its synthetic data set and the requests received. */
  readonly dataSubjects: DataSubjectStore;
  /** Issues a token directly, e.g. one without a scope to provoke a 403. */
  issueToken(scopes: readonly string[]): IssuedToken;
  /** Looks up a presented access token. */
  checkToken(accessToken: string): TokenCheck;
  /**
   * Counts a request to `operation` and decides whether it is refused: the oldest matching
   * injected fault first, then the admission check. Every handler calls this first.
   */
  admit(operation: MockOperation): FaultHit | undefined;
  /** Queues a fault for the next `count` matching requests (throws a ZodError on a bad spec). */
  injectFault(spec: FaultSpec): PendingFault;
  /** The faults still queued, oldest first. */
  pendingFaults(): PendingFault[];
  clearFaults(): void;
  stats(): MockStats;
  /** Forgets tokens, faults and counters; keeps the data set, credentials and clock. */
  reset(): void;
}

/** Creates the state of one mock upstream. */
export function createMockState(options: MockStateOptions = {}): MockState {
  const now = options.now ?? Date.now;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const tokenTtlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds < 1) {
    throw new RangeError('tokenTtlSeconds must be a positive integer');
  }
  const eventTypes = createEventTypeStore(
    options.eventTypes ?? generateEventTypes(options.eventTypeCount ?? DEFAULT_EVENT_TYPE_COUNT),
  );
  const dataSubjects = createDataSubjectStore(now(), options.dataSubjectOperations);
  const tokens = createTokenStore(now);
  const faults = createFaultQueue();

  const zeroRequests = (): Record<MockOperation, number> =>
    Object.fromEntries(MOCK_OPERATIONS.map((operation) => [operation, 0])) as Record<
      MockOperation,
      number
    >;
  let requests = zeroRequests();
  let tokensIssued = 0;
  let faultsServed = 0;

  return {
    now,
    sleep,
    clientId: options.clientId ?? DEFAULT_MOCK_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_MOCK_CLIENT_SECRET,
    tokenTtlSeconds,
    knownScopes: [...(options.knownScopes ?? DEFAULT_KNOWN_SCOPES)],
    eventTypes,
    dataSubjects,
    issueToken(scopes) {
      tokensIssued += 1;
      return tokens.issue(scopes, tokenTtlSeconds);
    },
    checkToken: (accessToken) => tokens.check(accessToken),
    admit(operation) {
      requests[operation] += 1;
      const hit = faults.take(operation) ?? options.admission?.(operation, now());
      if (hit) faultsServed += 1;
      return hit;
    },
    injectFault: (spec) => faults.inject(spec),
    pendingFaults: () => faults.pending(),
    clearFaults: () => faults.clear(),
    stats: () => ({
      tokenRequests: requests.token,
      tokensIssued,
      requests: { ...requests },
      faultsServed,
      pendingFaults: faults.pending().length,
    }),
    reset() {
      tokens.clear();
      faults.clear();
      dataSubjects.clearReceived();
      requests = zeroRequests();
      tokensIssued = 0;
      faultsServed = 0;
    },
  };
}
