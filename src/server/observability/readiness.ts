// What GET /readyz answers, so a load balancer sends browsers only to replicas that can serve
// them. Ready: every required check passes (the store answers and takes writes, so nothing
// personal is fetched that cannot be audited and no 429 goes unrecorded) and the process is not
// shutting down. A failing token endpoint or Redis being away does not take a replica out: it
// would take every replica out at once, although cached event types can still be served and
// incidents still recorded; both show as `degraded` with the reason (docs/operations.md). The
// checks are declared by the areas (area-module.ts) and collected by compose.ts, once for both
// /readyz and /api/health (console-health.ts).
import { TokenError } from '../upstream/token-failure';
import { withinDeadline } from '../runtime/within-deadline';

/** One check's answer, as /readyz lists it under the check's name. */
export interface CheckResult {
  readonly ok: boolean;
  readonly error?: string;
  /** When the last write failed (the write checks). */
  readonly failedAt?: string;
  readonly detail?: string;
  /** The diagnosed reason a token could not be had (upstream/token-failure.ts). */
  readonly cause?: string;
  /** Which windows decide: shared in Redis, or this replica's share of each limit. */
  readonly mode?: 'shared' | 'fallback' | 'single';
  readonly since?: string;
}

/**
 * One named check an area declares on its module (`readiness`), or the composition root for
 * what it owns itself (a token can be had).
 */
export interface ReadinessCheck {
  /** Its name on /readyz and in the `console_readiness_check` gauge. */
  readonly name: string;
  /**
   * Failing, a required check takes the replica out of rotation (503) and, unless it answers a
   * field of its own on /api/health, shows the store as unavailable there; any other check only
   * marks the replica degraded.
   */
  readonly required: boolean;
  /**
   * The /api/health field this check answers (console-health.ts): `audit` (lookups refused
   * while it fails) or `governor` (its `mode`).
   */
  readonly health?: 'audit' | 'governor';
  readonly check: () => Promise<CheckResult>;
}

/** What /readyz reports: each check by name, and whether the replica should get traffic. */
export interface Readiness {
  readonly ok: boolean;
  /** Each check's answer by name; `shutdown` while the process shuts down. */
  readonly checks: Readonly<Record<string, CheckResult>>;
  /** Serving, but with less than it should have (e.g. the governor on its fallback). */
  readonly degraded?: boolean;
}

/** One check run, beside what it was declared as. */
export interface CheckRun {
  readonly declared: ReadinessCheck;
  readonly result: CheckResult;
}

/** Runs the checks at once; a check that throws counts as failed with its message. */
export function runChecks(checks: readonly ReadinessCheck[]): Promise<CheckRun[]> {
  return Promise.all(
    checks.map(async (declared) => {
      try {
        return { declared, result: await declared.check() };
      } catch (error) {
        return {
          declared,
          result: { ok: false, error: error instanceof Error ? error.message : String(error) },
        };
      }
    }),
  );
}

const TOKEN_TIMEOUT_MS = 3_000;

export interface TokenCheckOptions {
  /** Gets an access token (the cached one when still valid). */
  readonly token: () => Promise<unknown>;
  /**
   * Why getting a token failed, when the governor held the token request back (an upstream block
   * running): then the replica is fine, the account is not.
   */
  readonly heldBack: (error: unknown) => Promise<boolean>;
  /** How long a failed token check is reused before trying again (default 5 s). */
  readonly retryMs?: number;
  readonly now?: () => number;
}

/**
 * The composition root's own check: an access token can be had. Not required: a token endpoint
 * away would take every replica out at once. /api/health reads the last failure instead of
 * running it, so the banner never causes a token request.
 */
export function tokenCheck(options: TokenCheckOptions): ReadinessCheck {
  const now = options.now ?? Date.now;
  let failedToken: { at: number; result: CheckResult } | undefined;
  return {
    name: 'token',
    required: false,
    async check() {
      // A failing token endpoint is not asked again on every probe of every load balancer.
      if (failedToken && now() - failedToken.at < (options.retryMs ?? 5_000)) {
        return failedToken.result;
      }
      try {
        await withinDeadline(options.token(), TOKEN_TIMEOUT_MS, () => {
          throw new Error('the token endpoint did not answer in time');
        });
        failedToken = undefined;
        return { ok: true };
      } catch (error) {
        if (await options.heldBack(error)) {
          return { ok: true, detail: 'token request held back by the rate-limit governor' };
        }
        const result = {
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          ...(error instanceof TokenError ? { cause: error.reason } : {}),
        };
        failedToken = { at: now(), result };
        return result;
      }
    },
  };
}

/** The readiness check, and the switch that takes the replica out of rotation at shutdown. */
export function createReadiness(checks: readonly ReadinessCheck[]) {
  let draining = false;
  return {
    /** From now on the replica answers 503, so the load balancer stops sending to it. */
    drain(): void {
      draining = true;
    },

    async check(): Promise<Readiness> {
      const runs = await runChecks(checks);
      const ok = !draining && runs.every(({ declared, result }) => !declared.required || result.ok);
      return {
        ok,
        degraded: !ok || runs.some(({ result }) => !result.ok),
        checks: {
          ...Object.fromEntries(runs.map(({ declared, result }) => [declared.name, result])),
          ...(draining ? { shutdown: { ok: false, detail: 'shutting down' } } : {}),
        },
      };
    },
  };
}
