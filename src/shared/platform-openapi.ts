// The console's own OpenAPI 3.1 description of the platform operations it calls, generated from the
// zod contract (data-subject-contract.ts, event-types.ts) so the two cannot drift. It is strict
// where the parse is tolerant: a documented string is a string (never null), an integer an
// integer, a date-time a date-time, and only the documented statuses exist. A third-party validator
// (Prism) holds the mock and the console's requests to it; the committed copy is
// docs/platform-openapi.json, written by scripts/generate-platform-openapi.ts.
import * as z from 'zod/mini';
import {
  DOCUMENTED_FORMATS,
  PLATFORM_CONTRACT,
  VENDOR_DOCUMENTS,
  type ContractOperation,
  type ContractParam,
} from './data-subject-contract';
import { EVENT_TYPES_OPERATION, UpstreamEventTypesSchema } from './event-types';
import { TOKEN_OPERATION } from './platform-operations';

type Json = Record<string, unknown>;

/** The path of the token endpoint on the service host (the oauth-token document). */
export const PLATFORM_TOKEN_PATH = TOKEN_OPERATION.path;

const SECURITY_SCHEME = 'platformOAuth';
const TOKEN_DOCUMENT = 'the vendor’s OAuth token OpenAPI document';
const AUDIT_DOCUMENT = 'the vendor’s audit (activity log) OpenAPI document';

/**
 * The rate-limit headers every operation's document declares on its 429 (none of them marked
 * required there, so none is here).
 */
const RATE_LIMIT_HEADERS: Json = {
  'Retry-After': {
    description: 'Seconds until requests are allowed again.',
    schema: { type: 'integer', format: 'int32' },
  },
  'ot-ratelimit-event-id': {
    description: 'The rate-limiting event.',
    schema: { type: 'string', format: 'uuid' },
  },
  'ot-requests-allowed': {
    description: 'Requests allowed in the period.',
    schema: { type: 'integer', format: 'int32' },
  },
  'ot-period': {
    description: 'The period the limit applies to.',
    schema: { type: 'string', enum: ['HOUR', 'MINUTE'] },
  },
  'ot-request-made': {
    description: 'Requests made in the period.',
    schema: { type: 'integer', format: 'int32' },
  },
};

/** A JSON body whose value is a string, as the v4 documents give their 401, 403 and 404. */
const jsonString = { 'application/json': { schema: { type: 'string' } } };

/**
 * The statuses an operation's document declares, with their bodies. The v4 documents (those that
 * declare the not-found answer) give 401, 403 and 404 a JSON-string body; the legacy documents give
 * no body for any error; all of them declare 400, 401, 403, 429 and 500.
 */
function errorResponses(v4Style: boolean): Json {
  return {
    '400': { description: 'Bad Request' },
    '401': { description: 'Unauthorized', ...(v4Style ? { content: jsonString } : {}) },
    '403': { description: 'Forbidden', ...(v4Style ? { content: jsonString } : {}) },
    ...(v4Style ? { '404': { description: 'Not Found', content: jsonString } } : {}),
    '429': { description: 'Too Many Requests', headers: RATE_LIMIT_HEADERS },
    '500': { description: 'Internal Server Error' },
  };
}

function isNull(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as Json).type === 'null';
}

/**
 * The strict JSON Schema of a contract schema: `null` taken out of every nullable field (the
 * documents never allow it: the console tolerates it from the platform, the description does
 * not), and the documented formats put in.
 */
export function strictSchema(schema: z.ZodMiniType): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    reused: 'inline',
    unrepresentable: 'any',
    metadata: DOCUMENTED_FORMATS,
    override: ({ zodSchema, jsonSchema }) => {
      const node = jsonSchema as Json;
      if (zodSchema._zod.def.type !== 'nullable') return;
      if (Array.isArray(node.type)) {
        const types = (node.type as string[]).filter((type) => type !== 'null');
        node.type = types.length === 1 ? types[0] : types;
      } else if (Array.isArray(node.anyOf)) {
        const rest = (node.anyOf as unknown[]).filter((branch) => !isNull(branch));
        delete node.anyOf;
        if (rest.length === 1) Object.assign(node, rest[0]);
        else node.anyOf = rest;
      }
    },
  }) as Json;
  delete json.$schema;
  return json;
}

function paramSchema(param: ContractParam): Json {
  const schema: Json = { type: param.type };
  if (param.format) schema.format = param.format;
  if (param.minimum !== undefined) schema.minimum = param.minimum;
  if (param.maximum !== undefined) schema.maximum = param.maximum;
  if (param.values) schema.enum = [...param.values];
  if (param.default !== undefined) {
    schema.default =
      param.type === 'boolean'
        ? param.default === 'true'
        : param.type === 'integer'
          ? Number(param.default)
          : param.default;
  }
  return schema;
}

function dataSubjectOperation(operation: ContractOperation): Json {
  const v4Style = operation.notFound;
  return {
    operationId: operation.operationId,
    summary: operation.answerName,
    description: `Source: ${VENDOR_DOCUMENTS[operation.document]}, operation ${operation.operationId}.`,
    security: [{ [SECURITY_SCHEME]: ['CONSENT', 'CONSENT_READ'] }],
    parameters: operation.params.map((param) => ({
      name: param.name,
      in: param.in,
      required: param.required,
      schema: paramSchema(param),
    })),
    responses: {
      '200': {
        description: operation.answerName,
        content: { 'application/json': { schema: strictSchema(operation.answer) } },
      },
      ...errorResponses(v4Style),
    },
  };
}

function eventTypesOperation(): Json {
  const list = { type: 'array', items: { type: 'string' } };
  return {
    operationId: EVENT_TYPES_OPERATION.operationId,
    summary: 'The activity-log event types',
    description: `Source: ${AUDIT_DOCUMENT}, operation ${EVENT_TYPES_OPERATION.operationId}.`,
    security: [{ [SECURITY_SCHEME]: ['ACTIVITY_LOG'] }],
    parameters: [
      { name: 'modules', in: 'query', required: false, schema: list },
      { name: 'objectTypes', in: 'query', required: false, schema: list },
    ],
    responses: {
      '200': {
        description: 'The event types',
        content: { 'application/json': { schema: strictSchema(UpstreamEventTypesSchema) } },
      },
      ...errorResponses(false),
    },
  };
}

/** The token request as the oauth-token document declares it: a multipart form of three fields. */
function tokenOperation(): Json {
  const text = { type: 'string' };
  const uuid = { type: 'string', format: 'uuid' };
  const int32 = { type: 'integer', format: 'int32' };
  return {
    operationId: 'GetOAuthToken',
    summary: 'An access token for the client credentials',
    description: `Source: ${TOKEN_DOCUMENT}, operation GetOAuthToken. The document declares no security: the credentials travel in the form.`,
    security: [],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['grant_type', 'client_id', 'client_secret'],
            properties: {
              grant_type: { type: 'string', enum: ['client_credentials'] },
              client_id: text,
              client_secret: text,
            },
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The token',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                access_token: text,
                token_type: text,
                expires_in: int32,
                scope: text,
                ot_scopes: text,
                jti: text,
                email: text,
                user_name: text,
                role: text,
                guid: uuid,
                sessionId: uuid,
                orgGroupGuid: uuid,
                orgGroupId: uuid,
                tenantGuid: text,
                tenantId: int32,
                languageId: int32,
              },
            },
          },
        },
      },
      '400': { description: 'Bad Request' },
      '401': { description: 'Unauthorized' },
      '403': { description: 'Forbidden' },
      '404': { description: 'Not Found' },
      '429': { description: 'Too Many Requests', headers: RATE_LIMIT_HEADERS },
      '500': { description: 'Internal Server Error' },
    },
  };
}

/** The description, as docs/platform-openapi.json holds it. */
export function platformOpenApi(): Json {
  const paths: Record<string, Json> = {
    [PLATFORM_TOKEN_PATH]: { post: tokenOperation() },
    [EVENT_TYPES_OPERATION.path]: { get: eventTypesOperation() },
  };
  for (const operation of PLATFORM_CONTRACT) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method.toLowerCase()]: dataSubjectOperation(operation),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Privacy platform operations the console calls',
      version: '1',
      summary: 'The platform as the console and its built-in mock understand it.',
      description:
        'Written from the vendor’s published OpenAPI documents, each operation naming its source, and generated from the console’s zod contract (src/shared/data-subject-contract.ts) by `npm run openapi:platform`. Stricter than the console’s reading of answers: a field the documents type as a string is a string here, never null, and only the documented statuses exist. The built-in mock is checked against it by a validating proxy in the tests.',
    },
    servers: [
      {
        url: 'https://{hostname}',
        variables: { hostname: { default: 'platform.example', description: 'The service host' } },
      },
    ],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'oauth2',
          description: 'OAuth 2.0 client credentials at the token endpoint.',
          flows: {
            clientCredentials: {
              tokenUrl: PLATFORM_TOKEN_PATH,
              scopes: {
                CONSENT: 'Read and write consent data',
                CONSENT_READ: 'Read consent data',
                ACTIVITY_LOG: 'Read the activity log',
              },
            },
          },
        },
      },
    },
  };
}
