// What GET /api/health tells the browsers for the banner on every page: whether the console's own
// store and the audit trail's writes work, the governor's mode, and why the platform refuses the
// console's sign-in, if it does. Read from the same checks /readyz runs; never a new token request.
import type { ConsoleHealth } from '../../shared/console-health';
import type { TokenError } from '../upstream/token-failure';
import { runExtraChecks, type ExtraCheck, type Readiness } from './readiness';

export interface ConsoleHealthOptions {
  /** The incident store's checks (the rate-limits area). */
  readonly store: () => Promise<Pick<Readiness, 'ok'>>;
  /** Redis and the governor's mode, when replicas share them. */
  readonly shared: () => Promise<Pick<Readiness['checks'], 'governor'>>;
  /** Whether audit trail writes work (the data-subjects area). */
  readonly audit: () => Promise<{ readonly ok: boolean }>;
  readonly extraChecks: readonly ExtraCheck[];
  /** The last token failure, while no token has been had since (token-manager.ts). */
  readonly lastTokenFailure: () => TokenError | undefined;
  /** Whether the governor held that request back (then it is the rate-limit banner's news). */
  readonly heldBack: (error: TokenError) => Promise<boolean>;
}

export function createConsoleHealth(options: ConsoleHealthOptions) {
  return async (): Promise<ConsoleHealth> => {
    const [store, shared, audit, extra] = await Promise.all([
      options.store(),
      options.shared(),
      options.audit(),
      runExtraChecks(options.extraChecks),
    ]);
    const lastFailure = options.lastTokenFailure();
    const signIn = lastFailure && !(await options.heldBack(lastFailure)) ? lastFailure : undefined;
    return {
      store: store.ok && extra.requiredOk ? 'ok' : 'unavailable',
      audit: audit.ok ? 'ok' : 'failing',
      governor: shared.governor?.mode ?? 'single',
      ...(signIn
        ? { platformSignIn: { cause: signIn.reason, title: signIn.title, detail: signIn.detail } }
        : {}),
    };
  };
}
