// The three OCSF 1.2.0 classes the audit trail's events claim, as JSON Schema (2020-12) written
// from OCSF's own class and object definitions (events/base_event.json, includes/classification
// and occurrence, events/application/api.json, events/iam/authentication.json and
// entity_management.json, objects/metadata, product, actor, user, network_endpoint, api,
// managed_entity, cloud and account, profiles/cloud): each class's required attributes, its
// activity enum, type_uid = class_uid × 100 + activity_id, and the types OCSF gives the attributes
// the events use. No package of OCSF's schemas is published to npm, so this is checked with ajv
// instead. Tests only.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const int = { type: 'integer' };
const str = { type: 'string' };

/** OCSF's _entity constraint: at least one of these is present. */
const atLeastOne = (...names: string[]) => ({ anyOf: names.map((name) => ({ required: [name] })) });

const product = {
  type: 'object',
  required: ['vendor_name'],
  properties: { name: str, vendor_name: str, uid: str, version: str },
};

const metadata = {
  type: 'object',
  required: ['version', 'product'],
  properties: {
    version: { const: '1.2.0' },
    product,
    log_name: str,
    log_version: str,
    uid: str,
    sequence: int,
    original_time: str,
    correlation_uid: str,
    labels: { type: 'array', items: str },
    profiles: { type: 'array', items: str },
  },
};

/** The Cloud profile's object (objects/cloud, account): the provider, and the account. */
const cloud = {
  type: 'object',
  required: ['provider'],
  properties: {
    provider: str,
    region: str,
    account: {
      type: 'object',
      properties: {
        name: str,
        uid: str,
        type: str,
        type_id: { enum: [0, ...Array.from({ length: 17 }, (_, i) => i + 1), 99] },
        labels: { type: 'array', items: str },
      },
      ...atLeastOne('name', 'uid'),
    },
  },
};

const user = {
  type: 'object',
  properties: { name: str, uid: str, type_id: int, credential_uid: str },
  ...atLeastOne('account', 'name', 'uid'),
};

const actor = {
  type: 'object',
  properties: { user, app_name: str, app_uid: str, invoked_by: str },
  ...atLeastOne('process', 'user', 'invoked_by', 'session', 'app_name', 'app_uid'),
};

const networkEndpoint = {
  type: 'object',
  properties: {
    ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
    name: str,
    hostname: str,
    port: int,
    svc_name: str,
    uid: str,
  },
  ...atLeastOne(
    'ip',
    'uid',
    'name',
    'hostname',
    'svc_name',
    'instance_uid',
    'interface_uid',
    'interface_name',
  ),
};

const managedEntity = {
  type: 'object',
  properties: { name: str, uid: str, type: str, version: str, data: {} },
  ...atLeastOne('name', 'uid'),
};

/** Base event: classification, occurrence and the base's own required attributes. */
function eventClass(
  category: number,
  classUid: number,
  activities: number[],
  required: string[],
  properties: Record<string, unknown>,
) {
  return {
    type: 'object',
    required: [
      'activity_id',
      'category_uid',
      'class_uid',
      'type_uid',
      'time',
      'severity_id',
      'metadata',
      ...required,
    ],
    properties: {
      activity_id: { enum: [0, ...activities, 99] },
      activity_name: str,
      category_uid: { const: category },
      category_name: str,
      class_uid: { const: classUid },
      class_name: str,
      type_uid: int,
      type_name: str,
      // timestamp_t: milliseconds since the epoch.
      time: { type: 'integer', minimum: 0 },
      severity_id: { enum: [0, 1, 2, 3, 4, 5, 6, 99] },
      severity: str,
      status_id: { enum: [0, 1, 2, 99] },
      status: str,
      status_code: str,
      status_detail: str,
      message: str,
      metadata,
      actor,
      src_endpoint: networkEndpoint,
      cloud,
      unmapped: { type: 'object' },
      ...properties,
    },
  };
}

/** API Activity (6003): actor, api and src_endpoint are required. */
const apiActivity = eventClass(6, 6003, [1, 2, 3, 4], ['actor', 'api', 'src_endpoint'], {
  api: {
    type: 'object',
    required: ['operation'],
    properties: {
      operation: str,
      version: str,
      request: { type: 'object', required: ['uid'], properties: { uid: str } },
      response: { type: 'object', properties: { code: int, error: str, message: str } },
    },
  },
});

/** Authentication (3002): the user, and a service or a destination endpoint. */
const authentication = {
  ...eventClass(3, 3002, [1, 2, 3, 4, 5, 6, 7], ['user'], {
    user,
    service: { type: 'object', properties: { name: str, uid: str, version: str } },
    dst_endpoint: networkEndpoint,
  }),
  ...atLeastOne('service', 'dst_endpoint'),
};

/** Entity Management (3004): the entity is required; its result recommended. */
const entityManagement = eventClass(3, 3004, [1, 2, 3, 4], ['entity'], {
  entity: managedEntity,
  entity_result: managedEntity,
  comment: str,
});

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validators = new Map([
  [6003, ajv.compile(apiActivity)],
  [3002, ajv.compile(authentication)],
  [3004, ajv.compile(entityManagement)],
]);

/** The problems `event` has against the OCSF class it names; empty when it conforms. */
export function ocsfProblems(event: Record<string, unknown>): string[] {
  const validate = validators.get(event.class_uid as number);
  if (!validate) return [`class_uid ${String(event.class_uid)} is not one of the three`];
  const problems = validate(event)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
  const { class_uid: classUid, activity_id: activityId, type_uid: typeUid } = event;
  if (typeUid !== (classUid as number) * 100 + (activityId as number)) {
    problems.push(`type_uid ${String(typeUid)} is not class_uid × 100 + activity_id`);
  }
  return problems;
}
