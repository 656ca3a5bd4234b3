// The contract of the hooks the upstream client calls around every request it sends. It is written
// here, below the governor that implements it, so the transport layer never imports up into an
// area: the governor (rate limits) fills it in, metrics wrap it, the client only calls it.
import type { HttpProblem } from '../http/problem';
import type { TransportResponse } from './http-transport';

/** A call as the guard sees it: the operation's id, method and path below the base URL. */
export interface GuardedOperation {
  readonly id: string;
  readonly method: string;
  /** Path below the base URL (a `{name}` placeholder is fine: rules match it as one segment). */
  readonly path: string;
}

/** What the upstream client calls around each request it sends. */
export interface UpstreamGuard {
  /** Takes from the operation's limits; throws a 429 HttpProblem when the call must not be sent. */
  beforeSend(operation: GuardedOperation): Promise<void>;
  /**
   * Looks at the answer. A 429 is recorded (before this resolves) and thrown as a 429
   * HttpProblem naming the incident; any other answer passes.
   */
  afterAnswer(operation: GuardedOperation, response: TransportResponse): Promise<void>;
  /**
   * The real reason behind a failure to get a token: when the token request was held back (or
   * blocked by a 429), the browser should see that rate limit, not "sign-in unavailable".
   */
  explainFailure(error: unknown): Promise<HttpProblem | undefined>;
}

/** The guard plus the 429 handling the token transport needs without throwing. */
export interface GovernorGuard extends UpstreamGuard {
  /** Honours and records a 429; resolves to the problem the browser should see. */
  handle429(operation: GuardedOperation, response: TransportResponse): Promise<HttpProblem>;
}
