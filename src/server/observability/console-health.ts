// What GET /api/health tells the browsers for the banner on every page: whether the console's own
// store and the audit trail's writes work, the governor's mode, and why the platform refuses the
// console's sign-in, if it does. Read from the same checks /readyz runs, less the token's: never a
// new token request.
import type { ConsoleHealth } from '../../shared/console-health';
import type { TokenError } from '../upstream/token-failure';
import { runChecks, type ReadinessCheck } from './readiness';

export interface ConsoleHealthOptions {
  /** The checks the areas declare (compose.ts), as /readyz runs them. */
  readonly checks: readonly ReadinessCheck[];
  /** The last token failure, while no token has been had since (token-manager.ts). */
  readonly lastTokenFailure: () => TokenError | undefined;
  /** Whether the governor held that request back (then it is the rate-limit banner's news). */
  readonly heldBack: (error: TokenError) => Promise<boolean>;
}

/** GET /api/health's answer, from the areas' checks and the last token failure. */
export function createConsoleHealth(options: ConsoleHealthOptions) {
  return async (): Promise<ConsoleHealth> => {
    const runs = await runChecks(options.checks);
    const answering = (field: ReadinessCheck['health']) =>
      runs.find(({ declared }) => declared.health === field)?.result;
    // Every required check without a field of its own is the store's, as the banner names it.
    const storeOk = runs.every(
      ({ declared, result }) => !declared.required || declared.health || result.ok,
    );
    const audit = answering('audit');
    const lastFailure = options.lastTokenFailure();
    const signIn = lastFailure && !(await options.heldBack(lastFailure)) ? lastFailure : undefined;
    return {
      store: storeOk ? 'ok' : 'unavailable',
      ...(audit ? { audit: audit.ok ? 'ok' : 'failing' } : {}),
      governor: answering('governor')?.mode ?? 'single',
      ...(signIn
        ? { platformSignIn: { cause: signIn.reason, title: signIn.title, detail: signIn.detail } }
        : {}),
    };
  };
}
