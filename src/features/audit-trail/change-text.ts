// Administrative changes in words for the audit page: a sentence from the action and its target,
// the kinds as the filter names them, and a state's fields as "name: value" lines.
import type { AdminChange, AdminChangeKind } from '../../shared/admin-changes';

/** How each kind reads in the filter. */
export const CHANGE_KIND_LABELS: Readonly<Record<AdminChangeKind, string>> = {
  'alert-destination': 'Alert destinations',
  threshold: 'Alert thresholds',
  integration: 'Integrations',
  token: 'Tokens for scripts',
  'sign-in': 'Sign-ins',
  'sign-in-lock': 'Sign-in locks',
  session: 'Sessions ended',
  'learned-limits': 'Learned limits',
  blocks: 'Blocks',
  demo: 'Demo controls',
  audit: 'Audit exports and checks',
};

/** "Ended blocks" from a change's action (`target` is quoted where it says what changed). */
const SENTENCES: Readonly<Record<string, (target: string) => string>> = {
  'alert-destination.created': (t) => `Added the alert destination ${t}`,
  'alert-destination.changed': (t) => `Changed the alert destination ${t}`,
  'alert-destination.deleted': (t) => `Deleted the alert destination ${t}`,
  'alert-destination.test-sent': (t) => `Sent a test alert to ${t}`,
  'threshold.changed': (t) => `Changed the alert threshold of ${t}`,
  'integration.added': (t) => `Added the integration ${t}`,
  'integration.key-rotated': (t) => `Rotated the key of the integration ${t}`,
  'integration.revoked': (t) => `Revoked the integration ${t}`,
  'integration.removed': (t) => `Removed the integration ${t}`,
  'token.created': (t) => `Made the token for scripts ${t}`,
  'token.revoked': (t) => `Revoked the token for scripts ${t}`,
  'sign-in.succeeded': () => 'Signed in',
  'sign-in.refused': (t) => (t ? `Sign-in refused for ${t}` : 'Sign-in refused'),
  'sign-in-lock.released': (t) => `Released the sign-in lock of ${t}`,
  'session.ended': (t) => `Ended a session of ${t}`,
  'learned-limits.reset': () => 'Reset the learned rate limits',
  'blocks.ended': () => 'Ended every block',
  'demo.scenario-armed': (t) => `Armed the demo scenario ${t}`,
  'audit.exported': () => 'Exported the audit trail',
  'audit.verified': () => 'Verified the audit chain',
};

/** A readable name for what changed: its name from the state when it has one, else its id. */
function targetText(change: AdminChange): string {
  const named = [change.after, change.before]
    .map((state) => state?.name)
    .find((name): name is string => typeof name === 'string');
  if (named) return `“${named}”`;
  return change.target ? `“${change.target}”` : '';
}

/** "Changed the alert threshold of “account-minute:MINUTE”" for a change. */
export function changeSentence(change: AdminChange): string {
  const sentence = SENTENCES[change.action];
  const target = targetText(change);
  // An action this page does not know yet (a newer console): still said plainly.
  return sentence ? sentence(target) : `${change.action}${target ? ` ${target}` : ''}`;
}

/** A state's fields as lines; a `sha256:` value is marked as a fingerprint, never a secret. */
export function stateLines(state: Record<string, unknown> | null): string[] {
  if (state === null) return [];
  return Object.entries(state).map(([name, value]) => {
    if (typeof value === 'string' && value.startsWith('sha256:')) {
      return `${name}: fingerprint ${value}`;
    }
    return `${name}: ${value === null ? 'none' : typeof value === 'string' ? value : JSON.stringify(value)}`;
  });
}
