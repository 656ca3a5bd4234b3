// Each audit-trail entry as one OCSF 1.2.0 event (docs/audit-trail.md, "Streaming the trail"): a
// completed lookup as API Activity (6003), a sign-in as Authentication (3002), every other
// administrative change as Entity Management (3004). What leaves the console here is what an export
// holds: no identifier and no hash of one, secrets only as the trail's fingerprints. The platform
// connection an entry belongs to is OCSF's `cloud.account` (see platformAccount). The console's
// own facts (chain position, purpose, parameters) sit under `unmapped`, as OCSF asks.
import type { ChainLink } from './audit-chain-store';
import type { AppendedEntry } from './audit-record-store';
import type { StoredAuditRow } from './lookup-audit-entry';
import type { StoredChange } from './admin-change-entry';

/** The OCSF version the events follow (metadata.version). */
export const OCSF_VERSION = '1.2.0';

/**
 * The version of this mapping (metadata.log_version): raised when a field is renamed, removed or
 * changes meaning, so a SIEM's parser can tell lines apart; adding a field keeps it.
 */
export const AUDIT_EVENT_SCHEMA_VERSION = '1';

/** One event as written to the log and carried by an `audit.entry` alert. */
export type OcsfEvent = Record<string, unknown> & {
  readonly class_uid: number;
  readonly activity_id: number;
  readonly type_uid: number;
  readonly time: number;
  readonly message: string;
  readonly metadata: { readonly sequence: number; readonly uid: string };
};

const PRODUCT = {
  name: 'Privacy API Console',
  vendor_name: 'Privacy API Console',
  uid: 'privacy-api-console',
};

const CATEGORIES = {
  iam: { category_uid: 3, category_name: 'Identity & Access Management' },
  application: { category_uid: 6, category_name: 'Application Activity' },
} as const;

/** OCSF's CRUD activities, shared by API Activity and Entity Management. */
const ACTIVITIES = { 1: 'Create', 2: 'Read', 3: 'Update', 4: 'Delete', 99: 'Other' } as const;
type ActivityId = keyof typeof ACTIVITIES;

/**
 * What each verb of a change's action is in OCSF's terms. Exports and verifications read the
 * trail; rotating, releasing, resetting and arming change something that stays; revoking, removing
 * and ending remove it. A test alert changes nothing, so it is "Other", its verb kept in the name.
 */
const VERB_ACTIVITY: Readonly<Record<string, ActivityId>> = {
  created: 1,
  added: 1,
  exported: 2,
  verified: 2,
  changed: 3,
  'key-rotated': 3,
  'secret-rotated': 3,
  released: 3,
  reset: 3,
  'scenario-armed': 3,
  deleted: 4,
  revoked: 4,
  removed: 4,
  ended: 4,
};

const SIGN_IN_ACTIONS = new Set(['sign-in.succeeded', 'sign-in.refused']);

const classification = (
  category: keyof typeof CATEGORIES,
  classUid: number,
  className: string,
  activityId: ActivityId | 1,
  activityName: string,
) => ({
  ...CATEGORIES[category],
  class_uid: classUid,
  class_name: className,
  activity_id: activityId,
  activity_name: activityName,
  type_uid: classUid * 100 + activityId,
  type_name: `${className}: ${activityName}`,
  // Evidence, not an alarm: a SIEM raises severity with its own rules.
  severity_id: 1,
  severity: 'Informational',
});

const status = (ok: boolean) =>
  ok ? { status_id: 1, status: 'Success' } : { status_id: 2, status: 'Failure' };

const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;

/**
 * Where the entry came from: OCSF's `ip` holds an address only, so anything else the console saw
 * (`unknown` without a socket, a proxy's odd header) goes in `name`.
 */
function sourceEndpoint(address: string | null): Record<string, string> {
  const seen = address ?? 'unknown';
  const bare = seen.startsWith('::ffff:') && IPV4.test(seen.slice(7)) ? seen.slice(7) : seen;
  return IPV4.test(bare) || (bare.includes(':') && /^[0-9a-f:.]+$/i.test(bare))
    ? { ip: bare }
    : { name: seen };
}

/** The person or token that acted; a token's owner is the user. */
function actor(user: string, token: { id: string | null; name: string } | null) {
  return {
    user: { name: user },
    ...(token ? { app_name: token.name, ...(token.id ? { app_uid: token.id } : {}) } : {}),
  };
}

/** What `cloud.provider` names: the platform every connection is an account of. */
export const PLATFORM_PROVIDER = 'Privacy platform';

/**
 * The platform connection of an entry as OCSF's Cloud profile: `cloud.account`. OCSF's Account
 * object covers SaaS containers ("AWS Accounts, Azure Subscriptions, …"), and a connection is
 * exactly that: one account of the privacy platform, with its own credential, tier and data. The
 * standard field is chosen over `unmapped` so a SIEM's rules that already split events by cloud
 * account (production against test accounts) apply unchanged. The uid is the connection's name,
 * the one the trail and its exports hold (its label can change; the name never does); console-wide
 * changes name `default`, as their record does.
 */
function platformAccount(connection: string) {
  return {
    cloud: {
      provider: PLATFORM_PROVIDER,
      account: { uid: connection, type_id: 99, type: 'Platform connection' },
    },
  };
}

function metadata(uid: string, link: ChainLink, at: string, requestId: string | null) {
  return {
    version: OCSF_VERSION,
    // Every event carries `cloud` (platformAccount), which the Cloud profile defines.
    profiles: ['cloud'],
    product: PRODUCT,
    log_name: 'audit',
    log_version: AUDIT_EVENT_SCHEMA_VERSION,
    uid,
    sequence: link.seq,
    original_time: at,
    ...(requestId ? { correlation_uid: requestId } : {}),
  };
}

function parseState(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A completed lookup as API Activity: Read. */
export function lookupEvent(
  record: StoredAuditRow,
  links: { intent: ChainLink | null; outcome: ChainLink },
  address: string | null,
): OcsfEvent {
  const ok = record.outcome === 'ok';
  const purpose =
    record.purposeCategory !== null && record.purposeReference !== null
      ? { category: record.purposeCategory, reference: record.purposeReference }
      : null;
  return {
    ...classification('application', 6003, 'API Activity', 2, ACTIVITIES[2]),
    time: Date.parse(record.at),
    message: `${record.username} looked up a data subject (${record.operation}): ${record.outcome}`,
    ...status(ok),
    status_code: record.outcome,
    ...(record.detail ? { status_detail: record.detail } : {}),
    metadata: metadata(record.id, links.outcome, record.at, record.requestId),
    ...platformAccount(record.connection),
    actor: actor(
      record.username,
      record.tokenName === null ? null : { id: null, name: record.tokenName },
    ),
    src_endpoint: sourceEndpoint(address),
    api: {
      operation: record.operation,
      request: { uid: record.requestId ?? record.id },
      response: { code: record.status },
    },
    unmapped: {
      chain: {
        seq: links.outcome.seq,
        hash: links.outcome.hash,
        intent_seq: links.intent?.seq ?? null,
        intent_hash: links.intent?.hash ?? null,
      },
      purpose,
      identifier_hashed: record.identifierHash !== null,
      params: parseState(record.params),
      continued: record.continued,
      record_count: record.recordCount,
      subject_count: record.subjectCount,
    },
  };
}

/** Shared by both change classes: who, from where, and the entry's place in the chain. */
function changeContext(change: StoredChange, link: ChainLink) {
  return {
    time: Date.parse(change.at),
    metadata: metadata(change.id, link, change.at, change.requestId),
    ...platformAccount(change.connection),
    actor: actor(
      change.username,
      change.tokenName === null ? null : { id: change.tokenId, name: change.tokenName },
    ),
    src_endpoint: sourceEndpoint(change.address),
  };
}

const chainOf = (link: ChainLink) => ({ seq: link.seq, hash: link.hash });

/**
 * A sign-in as Authentication: Logon, so a SIEM's rules for failed logons and odd places see the
 * console's sign-ins as they see every other system's.
 */
function signInEvent(change: StoredChange, link: ChainLink): OcsfEvent {
  const ok = change.action === 'sign-in.succeeded';
  const after = parseState(change.after) as { reason?: unknown } | null;
  const reason = typeof after?.reason === 'string' ? after.reason : null;
  return {
    ...classification('iam', 3002, 'Authentication', 1, 'Logon'),
    ...changeContext(change, link),
    message: ok
      ? `${change.target ?? change.username} signed in`
      : `A sign-in${change.target ? ` as ${change.target}` : ''} was refused`,
    ...status(ok),
    ...(reason ? { status_detail: reason } : {}),
    // A refused name that is no account is not kept: a mistyped name is often a password.
    user: { name: change.target ?? '(not an account)' },
    service: { name: PRODUCT.name },
    unmapped: { chain: chainOf(link), action: change.action, after },
  };
}

/** An administrative change as Entity Management: the entity before, and after. */
function entityEvent(change: StoredChange, link: ChainLink): OcsfEvent {
  const dot = change.action.indexOf('.');
  const kind = dot === -1 ? change.action : change.action.slice(0, dot);
  const verb = dot === -1 ? change.action : change.action.slice(dot + 1);
  const activityId = VERB_ACTIVITY[verb] ?? 99;
  const entity = (state: string | null) => ({
    type: kind,
    // OCSF needs a name or uid: a change to the console as a whole names the kind.
    name: change.target ?? kind,
    ...(state === null ? {} : { data: parseState(state) }),
  });
  return {
    ...classification(
      'iam',
      3004,
      'Entity Management',
      activityId,
      activityId === 99 ? verb : ACTIVITIES[activityId],
    ),
    ...changeContext(change, link),
    message: `${change.username} ${change.action}${change.target ? ` ${change.target}` : ''}`,
    ...status(true),
    entity: entity(change.before),
    ...(change.after === null ? {} : { entity_result: entity(change.after) }),
    unmapped: { chain: chainOf(link), action: change.action },
  };
}

/** The OCSF event of an entry just written to the trail. */
export function ocsfEvent(entry: AppendedEntry): OcsfEvent {
  if (entry.kind === 'lookup') {
    return lookupEvent(
      entry.record,
      { intent: entry.intent, outcome: entry.outcome },
      entry.address,
    );
  }
  return SIGN_IN_ACTIONS.has(entry.change.action)
    ? signInEvent(entry.change, entry.link)
    : entityEvent(entry.change, entry.link);
}
