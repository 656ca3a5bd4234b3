// Builds the console's OpenAPI 3.1 document from the operations the route modules declare
// (api-operation.ts): JSON Schemas by zod's own converter, from the schemas the routes validate
// with, so the description and the code cannot say different things.
import * as z from 'zod';
import type * as zc from 'zod/v4/core';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, ProblemSchema } from '../../shared/problem';
import {
  describedBase,
  type ApiAnswer,
  type ApiModule,
  type ApiOperation,
} from '../http/api-operation';
import { CONNECTION_NAME_PATTERN } from '../../shared/connections';
import { RoleSchema } from '../../shared/session';

/** A JSON Schema object, as the document holds it. */
export type JsonSchema = Record<string, unknown>;

/** The OpenAPI document (the parts the console's tests read are typed). */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: JsonSchema;
  readonly paths: Record<string, Record<string, OpenApiOperation>>;
  readonly components: JsonSchema;
  readonly [key: string]: unknown;
}

/** One operation object of the document. */
export interface OpenApiOperation {
  readonly operationId: string;
  readonly responses: Record<
    string,
    { description: string; content?: Record<string, { schema: JsonSchema }> }
  >;
  readonly [key: string]: unknown;
}

/** The console's API version: the document changes with the code, not on its own schedule. */
const API_VERSION = '1';

/**
 * Request schemas are described as accepted (`input`: before transforms), answers as sent
 * (`output`). A transform or refinement has no JSON Schema; its input side is described and the
 * server's own check stays authoritative.
 */
function jsonSchemaOf(schema: zc.$ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

/** The problem+json schema, its `type` naming every registered problem type. */
function problemSchema(): JsonSchema {
  const schema = jsonSchemaOf(ProblemSchema, 'output');
  const properties = schema.properties as Record<string, JsonSchema>;
  properties.type = {
    ...properties.type,
    description:
      'A relative URI that never changes once published; opened on the console, it explains the problem (`/problems` lists them all).',
    examples: Object.values(PROBLEM_TYPES),
  };
  return schema;
}

/** `/destinations/:id` under `/api/alerts` -> `/api/alerts/destinations/{id}`. */
export function openApiPath(base: string, path: string): string {
  const joined = path === '/' ? base : `${base}${path}`;
  return joined.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The platform connection of a connection-scoped operation (GET /api/connections lists them). */
const CONNECTION_PARAMETER: JsonSchema = {
  name: 'connection',
  in: 'path',
  required: true,
  description:
    'The platform connection (production, UAT, a region) whose data and limits are meant; ' +
    'the first configured connection (`default`, configured the old way) is also reachable without this prefix, at the path minus `/connections/{connection}`.',
  schema: { type: 'string', pattern: CONNECTION_NAME_PATTERN.source },
};

function pathParameters(path: string, operation: ApiOperation): JsonSchema[] {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const declared = operation.params ? jsonSchemaOf(operation.params, 'input') : {};
  const properties = (declared.properties ?? {}) as Record<string, JsonSchema>;
  return names.map((name) =>
    name === 'connection'
      ? CONNECTION_PARAMETER
      : { name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } },
  );
}

function queryParameters(operation: ApiOperation): JsonSchema[] {
  if (!operation.query) return [];
  const schema = jsonSchemaOf(operation.query, 'input');
  const required = new Set((schema.required ?? []) as string[]);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function answerOf(answer: ApiAnswer): JsonSchema {
  const variants = [
    { mediaType: answer.mediaType ?? 'application/json', schema: answer.schema },
    ...(answer.alsoAs ?? []),
  ];
  const content = Object.fromEntries(
    variants.map(({ mediaType, schema }) => [
      mediaType,
      { schema: schema ? jsonSchemaOf(schema, 'output') : { type: 'string' } },
    ]),
  );
  return {
    description: answer.description,
    ...(answer.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(answer.headers).map(([name, description]) => [
              name,
              { description, schema: { type: 'string' } },
            ]),
          ),
        }
      : {}),
    ...(answer.schema || answer.mediaType ? { content } : {}),
  };
}

const problemRef = { $ref: '#/components/schemas/Problem' };

function problemAnswer(description: string, headers?: Record<string, string>): JsonSchema {
  return {
    description,
    ...(headers
      ? {
          headers: Object.fromEntries(
            Object.entries(headers).map(([name, meaning]) => [
              name,
              { description: meaning, schema: { type: 'string' } },
            ]),
          ),
        }
      : {}),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: problemRef } },
  };
}

/** The problems every operation may answer with, by who may call it. */
function commonProblems(operation: ApiOperation): Record<string, JsonSchema> {
  const common: Record<string, JsonSchema> = {
    default: problemAnswer(
      'Any other problem (problem+json): the console failed (500) or its store is unavailable (503). The `type` URI leads to an explanation.',
    ),
  };
  if ('session' in operation.access || 'signedIn' in operation.access) {
    common['401'] = problemAnswer(
      'Not signed in, or the session ended (`/problems/signed-out`); or the bearer token is malformed, revoked or expired. Sign in with POST /api/session, or make a token.',
      {
        'WWW-Authenticate':
          'The session challenge, `Cookie realm="console"`; for a bearer token, `Bearer error="invalid_token"`.',
      },
    );
    // Anyone signed in passes the role check; a session operation needs a console-wide role.
    const roles = 'session' in operation.access ? operation.access.session : undefined;
    common['403'] = problemAnswer(
      roles === undefined
        ? 'A cross-origin request or a missing X-CSRF header (with the cookie).'
        : roles.length < RoleSchema.options.length
          ? `A cross-origin request, a missing X-CSRF header (with the cookie), or a role other than ${roles.join(', ')} (a token's: with \`WWW-Authenticate: Bearer error="insufficient_scope"\`).`
          : 'A cross-origin request, a missing X-CSRF header (with the cookie), or no console-wide role (roles in named connections only).',
    );
  } else if ('public' in operation.access) {
    common['403'] = problemAnswer('A cross-origin request or a missing X-CSRF header.');
  }
  return common;
}

function operationObject(
  module: ApiModule,
  path: string,
  operation: ApiOperation,
): OpenApiOperation {
  const access = operation.access;
  const roles = 'session' in access ? access.session : [];
  const parameters = [
    ...pathParameters(path, operation),
    ...queryParameters(operation),
    ...(!('integrationKey' in access) && !operation.csrfExempt
      ? [{ $ref: '#/components/parameters/Csrf' }]
      : []),
  ];
  const notes = [
    operation.description,
    'session' in access ? `Roles: ${roles.join(', ')}.` : undefined,
    'signedIn' in access ? 'Anyone signed in.' : undefined,
    operation.demoOnly ? 'Served in demo mode only (no UPSTREAM_BASE_URL).' : undefined,
  ].filter((note): note is string => note !== undefined);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries(operation.responses)) {
    responses[status] = answerOf(answer);
  }
  for (const [status, description] of Object.entries(operation.problems ?? {})) {
    responses[status] = problemAnswer(description);
  }
  for (const [status, answer] of Object.entries(commonProblems(operation))) {
    responses[status] ??= answer;
  }
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: notes.join('\n\n'),
    tags: [module.tag.name],
    security:
      'session' in access || 'signedIn' in access
        ? [{ sessionCookie: [] }, { consoleToken: [] }]
        : 'integrationKey' in access
          ? [{ integrationKey: [] }]
          : [],
    ...('session' in access ? { 'x-roles': [...roles] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(operation.body, 'input') } },
          },
        }
      : {}),
    responses: responses as OpenApiOperation['responses'],
  };
}

/** The OpenAPI 3.1 document of `modules`. */
export function buildOpenApiDocument(modules: readonly ApiModule[]): OpenApiDocument {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const module of modules) {
    for (const operation of module.operations) {
      const path = openApiPath(describedBase(module), operation.path);
      paths[path] ??= {};
      paths[path][operation.method] = operationObject(module, path, operation);
    }
  }
  const sorted = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((path) => [path, paths[path]!]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Privacy API Console',
      version: API_VERSION,
      summary: 'The console’s own HTTP API, as its browser app uses it.',
      description: [
        'Every `/api` route of the console. Generated from the zod schemas the routes validate with (`npm run openapi`); served at `/api/openapi.json` to signed-in users.',
        'Sign in with `POST /api/session` (JSON `{ "username", "password" }`): the answer sets the session cookie. Every other call carries that cookie and the header `X-CSRF: 1`, and comes from the console’s own origin (no `Origin` header, or the console’s).',
        'Failures are `application/problem+json` (RFC 9457). Each `type` is a relative URI such as `/problems/signed-out`; opened on the console, it explains what happened and what to do.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'The console itself (same origin as the browser app).' }],
    tags: modules
      .map((module) => module.tag)
      .filter((tag, index, tags) => tags.findIndex((other) => other.name === tag.name) === index)
      .map((tag) => ({ name: tag.name, description: tag.description })),
    paths: sorted,
    components: {
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'console_session',
          description:
            'The session cookie POST /api/session sets (`__Host-console_session` over HTTPS).',
        },
        consoleToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A token for scripts (`pac_…`), made on the Tokens page or with POST /api/tokens. It acts for its owner with its own role; no cookie, Origin or X-CSRF header is needed.',
        },
        integrationKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An integration’s reporting key, issued on the Integrations page.',
        },
      },
      parameters: {
        Csrf: {
          name: 'X-CSRF',
          in: 'header',
          required: false,
          description:
            'Always `1` with the session cookie (a cross-site page cannot send it); not needed with a bearer token.',
          schema: { type: 'string', const: '1' },
        },
      },
      schemas: { Problem: problemSchema() },
    },
  };
}
