// What GET /readyz answers, so a load balancer sends browsers only to replicas that can serve
// them. Ready: the store answers and takes writes (nothing personal is fetched that cannot be
// audited, no 429 goes unrecorded), every required extra check passes, and the process is not
// shutting down. A failing token endpoint or Redis being away does not take a replica out: it
// would take every replica out at once, although cached event types can still be served and
// incidents still recorded; both show as `degraded` with the reason (docs/operations.md).
import { TokenError } from '../upstream/token-failure';
import { withinDeadline } from '../runtime/within-deadline';

/** What /readyz reports: each check by name, and whether the replica should get traffic. */
export interface Readiness {
  readonly ok: boolean;
  readonly checks: {
    readonly store: { readonly ok: boolean; readonly error?: string };
    readonly incidentWrites: {
      readonly ok: boolean;
      readonly failedAt?: string;
      readonly error?: string;
    };
    /** Audit trail writes work (data-subjects/audit/lookup-audit-writer.ts); data-subject lookups are refused otherwise. */
    readonly auditWrites?: {
      readonly ok: boolean;
      readonly failedAt?: string;
      readonly error?: string;
    };
    /** An access token can be had (createReadiness below). */
    readonly token?: {
      readonly ok: boolean;
      readonly error?: string;
      readonly detail?: string;
      /** The diagnosed reason (upstream/token-failure.ts), as on /api/health and in the log. */
      readonly cause?: string;
    };
    /** Redis answers (REDIS_URL). */
    readonly redis?: { readonly ok: boolean; readonly error?: string };
    /** Which windows decide: shared in Redis, or this replica's share of each limit. */
    readonly governor?: {
      readonly ok: boolean;
      readonly mode: 'shared' | 'fallback' | 'single';
      readonly detail?: string;
      readonly since?: string;
    };
    /** Present while the process shuts down: take it out of rotation. */
    readonly shutdown?: { readonly ok: false; readonly detail: string };
  };
  /** Serving, but with less than it should have (e.g. the governor on its fallback). */
  readonly degraded?: boolean;
}

export interface ReadinessOptions {
  /** The incident store's checks (rate-limiting.ts). */
  readonly store: () => Promise<Readiness>;
  /** Gets an access token (the cached one when still valid). */
  readonly token: () => Promise<unknown>;
  /**
   * Why getting a token failed, when the governor held the token request back (an upstream block
   * running): then the replica is fine, the account is not.
   */
  readonly heldBack: (error: unknown) => Promise<boolean>;
  /** Redis and the governor's mode, when replicas share them (scale-out.ts). */
  readonly shared?: () => Promise<Pick<Readiness['checks'], 'redis' | 'governor'>>;
  /** Whether audit trail writes work (data-subjects/audit/lookup-audit-writer.ts): lookups are refused while they fail. */
  readonly audit?: () => Promise<NonNullable<Readiness['checks']['auditWrites']>>;
  /**
   * Further named checks, e.g. the audit trail's writes. `required` ones take the replica out of
   * rotation (and show the store as unavailable on /api/health) when they fail; the others only
   * mark it degraded.
   */
  readonly extraChecks?: readonly ExtraCheck[];
  /** How long a failed token check is reused before trying again (default 5 s). */
  readonly tokenRetryMs?: number;
  readonly now?: () => number;
}

/** A named check readiness runs beside its own. */
export interface ExtraCheck {
  readonly name: string;
  readonly required: boolean;
  readonly check: () => Promise<{ readonly ok: boolean; readonly error?: string }>;
}

const TOKEN_TIMEOUT_MS = 3_000;

/** Runs the extra checks; a check that throws counts as failed with its message. */
export async function runExtraChecks(checks: readonly ExtraCheck[] = []) {
  const results = await Promise.all(
    checks.map(async ({ name, required, check }) => {
      try {
        return { name, required, result: await check() };
      } catch (error) {
        return {
          name,
          required,
          result: { ok: false, error: error instanceof Error ? error.message : String(error) },
        };
      }
    }),
  );
  return {
    requiredOk: results.every(({ required, result }) => !required || result.ok),
    allOk: results.every(({ result }) => result.ok),
    checks: Object.fromEntries(results.map(({ name, result }) => [name, result])),
  };
}

/** The readiness check, and the switch that takes the replica out of rotation at shutdown. */
export function createReadiness(options: ReadinessOptions) {
  const now = options.now ?? Date.now;
  let draining = false;
  let failedToken: { at: number; check: NonNullable<Readiness['checks']['token']> } | undefined;

  async function tokenCheck(): Promise<NonNullable<Readiness['checks']['token']>> {
    // A failing token endpoint is not asked again on every probe of every load balancer.
    if (failedToken && now() - failedToken.at < (options.tokenRetryMs ?? 5_000)) {
      return failedToken.check;
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
      const check = {
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        ...(error instanceof TokenError ? { cause: error.reason } : {}),
      };
      failedToken = { at: now(), check };
      return check;
    }
  }

  return {
    /** From now on the replica answers 503, so the load balancer stops sending to it. */
    drain(): void {
      draining = true;
    },

    async check(): Promise<Readiness> {
      const [store, token, shared, auditWrites, extra] = await Promise.all([
        options.store(),
        tokenCheck(),
        options.shared?.() ?? Promise.resolve<Pick<Readiness['checks'], 'redis' | 'governor'>>({}),
        options.audit?.(),
        runExtraChecks(options.extraChecks),
      ]);
      const ok = store.ok && (auditWrites?.ok ?? true) && extra.requiredOk && !draining;
      const sharedOk = (shared.redis?.ok ?? true) && (shared.governor?.ok ?? true);
      return {
        ok,
        degraded: !ok || !token.ok || !sharedOk || !extra.allOk,
        checks: {
          ...store.checks,
          token,
          ...shared,
          ...(auditWrites ? { auditWrites } : {}),
          ...extra.checks,
          ...(draining ? { shutdown: { ok: false, detail: 'shutting down' } } : {}),
        },
      };
    },
  };
}
