// The port through which every area records an administrative change in the audit trail before
// applying it. Areas never import each other, so each receives a `RecordChange` from the
// composition root (compose.ts), which fills it with the audit store; who, when and from where
// are taken from the request here, so an area only says what changes.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from './app-env';
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { PROBLEM_TYPES } from '../../shared/problem';
import { HttpProblem } from './problem';

/** What an area says about a change: what, to which thing, before and after (no secrets). */
export interface ChangeDetails {
  /** `<kind>.<verb>`, e.g. `alert-destination.created` (docs/audit-trail.md lists them). */
  readonly action: string;
  /** The id or name of what changed; null when the change concerns the console as a whole. */
  readonly target: string | null;
  /** Its state before, with secrets replaced by `fingerprint()`; null when it did not exist. */
  readonly before?: unknown;
  /** Its state after, the same way; null when it no longer exists. */
  readonly after?: unknown;
  /** Who, when the request has no signed-in user yet (a sign-in names who signed in). */
  readonly actorName?: string;
  /**
   * The platform connection the change concerns. When not given: the connection of the route the
   * request reached, else DEFAULT_CONNECTION (changes of the console as a whole).
   */
  readonly connection?: string;
}

/** Who made a change: a person, or a token acting for its owner. */
export interface ChangeActor {
  readonly user: string;
  readonly token: { readonly id: string; readonly name: string } | null;
}

/** One administrative change as the audit trail keeps it (time in epoch ms). */
export interface AdministrativeChange extends ChangeDetails {
  readonly at: number;
  readonly connection: string;
  readonly actor: ChangeActor;
  /** The client's address as the console sees it (security/web-settings.ts clientAddress). */
  readonly address: string;
  readonly requestId: string | null;
}

/** Records `change` for the request `c`; rejects with a 503 problem when it cannot be written. */
export type RecordChange = (c: Context<AppEnv>, change: ChangeDetails) => Promise<void>;

/** A secret as the trail shows it: never the value, a short hash to tell two apart. */
export function fingerprint(secret: string | null | undefined): string | null {
  if (secret === null || secret === undefined) return null;
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 16)}`;
}

/** The 503 for a change refused because its audit entry could not be written. */
export function changeNotRecordedProblem(): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.auditUnavailable,
    title: 'The change could not be recorded in the audit trail',
    status: 503,
    detail:
      'Every administrative change is recorded in the audit trail before it is made, and the trail cannot take records now (the console’s store is full, failing, read-only or unreachable), so nothing was changed. Try again once the store is back; /readyz shows its state.',
  });
}

export interface ChangeRecorderDeps {
  /** Writes the entry (the audit store); rejects when it cannot. */
  readonly record: (change: AdministrativeChange) => Promise<unknown>;
  /** The client's address for a request. */
  readonly clientAddress: (c: Context<AppEnv>) => string;
  readonly now: () => number;
  /** Told why an entry could not be written (the answer only says that it could not). */
  readonly onFailure?: (error: unknown, change: AdministrativeChange) => void;
}

/** The `RecordChange` every area receives: the request's actor and address, then the store. */
export function changeRecorder(deps: ChangeRecorderDeps): RecordChange {
  return async (c, { actorName, ...details }) => {
    const user = c.get('user');
    const change: AdministrativeChange = {
      ...details,
      // The connection the route acts on (described-access.ts), unless the change names one.
      connection: details.connection ?? c.get('connection') ?? DEFAULT_CONNECTION,
      at: deps.now(),
      actor: {
        // Sign-in entries are written before a session exists: the name tried is in `target`.
        user: user?.username ?? actorName ?? 'anonymous',
        token: user?.token ? { id: user.token.id, name: user.token.name } : null,
      },
      address: deps.clientAddress(c),
      requestId: c.get('requestId') ?? null,
    };
    try {
      await deps.record(change);
    } catch (error) {
      deps.onFailure?.(error, change);
      throw changeNotRecordedProblem();
    }
  };
}
