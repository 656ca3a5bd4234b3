// The what-if form's policy as typed: text fields (empty means "no such limit"), turned into the
// request the BFF checks. A field that is not a number is caught here, before anything is sent;
// the BFF's own checks (zero, negative, absurd) come back naming the field, and land on it too.
import type { PlanningPolicies, PolicyChoice } from '../../shared/planning';

export interface ModuleDraft {
  readonly id: string;
  readonly name: string;
  readonly on: boolean;
  readonly minute: string;
  readonly hour: string;
}

export interface PolicyDraft {
  /** The other published version, another connection's policy in force, or numbers of one's own. */
  readonly kind: 'other' | 'connection' | 'custom';
  /** With `connection`: whose policy (one of `policies.connections`). */
  readonly connection: string;
  readonly accountMinute: string;
  readonly accountHour: string;
  readonly endpointMinute: string;
  readonly modules: readonly ModuleDraft[];
}

/** A draft field's id, as the form's inputs and errors name it. */
export type DraftField = string;

const limitOf = (policies: PlanningPolicies, ruleId: string) =>
  policies.inForce.limits.find((limit) => limit.ruleId === ruleId)?.limit;
const text = (value: number | null | undefined) => (value == null ? '' : String(value));

/** A custom draft that starts from the policy in force: change one number, see what it does. */
export function draftFromInForce(policies: PlanningPolicies): PolicyDraft {
  const inForceModules = new Set(
    policies.inForce.limits
      .filter((limit) => limit.scope === 'module')
      .map((limit) => limit.ruleId),
  );
  return {
    kind: 'other',
    connection: policies.connections[0]?.name ?? '',
    accountMinute: text(limitOf(policies, 'account-minute')),
    accountHour: text(limitOf(policies, 'account-hour')),
    endpointMinute: text(limitOf(policies, 'endpoint-minute')),
    modules: policies.moduleRules.map((rule) => ({
      id: rule.id,
      name: rule.name,
      on: inForceModules.has(rule.id),
      minute: text(rule.minute),
      hour: text(rule.hour),
    })),
  };
}

/** Either the request's policy, or the fields that are not numbers. */
export type DraftResult =
  | { readonly ok: true; readonly policy: PolicyChoice }
  | { readonly ok: false; readonly errors: ReadonlyMap<DraftField, string> };

const NOT_A_NUMBER = 'Enter a whole number of requests, or leave the field empty for no limit.';

/** The draft as the request's policy; `other` is the published version not in force. */
export function policyOfDraft(draft: PolicyDraft, policies: PlanningPolicies): DraftResult {
  if (draft.kind === 'other') {
    const { choice } = policies.other;
    return { ok: true, policy: choice };
  }
  if (draft.kind === 'connection') {
    return { ok: true, policy: { kind: 'connection', connection: draft.connection } };
  }
  const errors = new Map<DraftField, string>();
  const read = (field: DraftField, value: string): number | null => {
    const trimmed = value.trim().replace(/[\s,_]/g, '');
    if (trimmed === '') return null;
    if (!/^-?\d+(\.\d+)?$/.test(trimmed)) {
      errors.set(field, NOT_A_NUMBER);
      return null;
    }
    return Number(trimmed);
  };
  const policy: PolicyChoice = {
    kind: 'custom',
    accountMinute: read('accountMinute', draft.accountMinute),
    accountHour: read('accountHour', draft.accountHour),
    endpointMinute: read('endpointMinute', draft.endpointMinute),
    moduleRules: draft.modules
      .filter((module) => module.on)
      .map((module) => ({
        id: module.id,
        minute: read(`module:${module.id}:minute`, module.minute),
        hour: read(`module:${module.id}:hour`, module.hour),
      })),
  };
  return errors.size > 0 ? { ok: false, errors } : { ok: true, policy };
}

/**
 * The draft field the BFF's `parameter` names (`policy.accountMinute`,
 * `policy.moduleRules[2].hour`), for the policy sent from `draft`.
 */
export function fieldOfParameter(parameter: string, draft: PolicyDraft): DraftField | undefined {
  const account = /^policy\.(accountMinute|accountHour|endpointMinute)$/.exec(parameter);
  if (account) return account[1];
  const module = /^policy\.moduleRules\[(\d+)\](?:\.(minute|hour|id))?$/.exec(parameter);
  if (module) {
    const sent = draft.modules.filter((entry) => entry.on)[Number(module[1])];
    if (!sent) return undefined;
    return `module:${sent.id}:${module[2] === 'hour' ? 'hour' : 'minute'}`;
  }
  return undefined;
}
