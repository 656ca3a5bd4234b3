// Checks a real answer of the console against its API description with a standard JSON Schema
// (2020-12) validator, so route tests prove the document tells the truth, not our code agreeing
// with itself. Tests only.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Hono } from 'hono';
import {
  CONNECTION_API_PREFIX,
  connectionApiPath,
  DEFAULT_CONNECTION,
} from '../../shared/connections';
import { API_MODULES } from '../api-description/api-modules';
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../api-description/openapi-document';

/** The document as the code builds it (the committed copy is checked against it separately). */
export const API_DOCUMENT: OpenApiDocument = buildOpenApiDocument(API_MODULES);

const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats(ajv);
ajv.addSchema(API_DOCUMENT as object, 'console-api');

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A template's path with every parameter filled: the connection with `default` (a configured
 * one), the rest with `id`.
 */
export function concretePath(template: string, id: string): string {
  return template.replace('{connection}', DEFAULT_CONNECTION).replace(/\{[^}]+\}/g, id);
}

/**
 * The documented operation for `method` and a concrete `path`, with its template; a path of
 * `default`'s without the connection prefix is its operation under the prefix.
 */
export function documentedOperation(
  method: string,
  target: string,
): { template: string; operation: OpenApiOperation } | undefined {
  const path = target.split('?', 1)[0]!;
  const match = (concrete: string) => {
    for (const [template, operations] of Object.entries(API_DOCUMENT.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      const operation = operations[method.toLowerCase()];
      if (operation && pattern.test(concrete)) return { template, operation };
    }
    return undefined;
  };
  return (
    match(path) ??
    (path.startsWith(CONNECTION_API_PREFIX) || !path.startsWith('/api/')
      ? undefined
      : match(connectionApiPath(DEFAULT_CONNECTION, path)))
  );
}

/**
 * Why `response` to `method path` does not match the document, or `undefined` when it does: the
 * status must be documented (or fall to `default`), the media type named, and a JSON body valid
 * against that status's schema.
 */
export async function undocumentedAnswer(
  method: string,
  path: string,
  response: Response,
): Promise<string | undefined> {
  const found = documentedOperation(method, path);
  if (!found) return `${method} ${path} is not in the document`;
  const status = String(response.status);
  const documented = found.operation.responses[status] ? status : 'default';
  const answer = found.operation.responses[documented];
  if (!answer) return `${method} ${path}: status ${status} is not documented`;
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!answer.content) {
    return mediaType === '' || response.status === 204
      ? undefined
      : `${method} ${path} ${status}: a ${mediaType} body where none is documented`;
  }
  if (!answer.content[mediaType]) {
    return `${method} ${path} ${status}: media type ${mediaType} is not documented`;
  }
  if (!mediaType.endsWith('json')) {
    await response.body?.cancel();
    return undefined;
  }
  const ref = `console-api#/paths/${pointer(found.template)}/${method.toLowerCase()}/responses/${documented}/content/${pointer(mediaType)}/schema`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  const body: unknown = await response.json();
  if (validate(body)) return undefined;
  return `${method} ${path} ${status}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`;
}

/**
 * Every method and path of the app's /api routes, in the document's `{param}` form; a route
 * mounted under a connection's prefix is named with `{connection}`, once for all connections.
 */
export function registeredApiRoutes(app: Hono<never> | Pick<Hono, 'routes'>): Set<string> {
  const routes = new Set<string>();
  for (const route of app.routes) {
    // `ALL` entries are middleware and the catch-all, not operations.
    if (route.method === 'ALL' || !route.path.startsWith('/api/')) continue;
    const path = route.path
      .replace(/^\/api\/connections\/[^/]+\//, '/api/connections/:connection/')
      .replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    routes.add(`${route.method.toLowerCase()} ${path}`);
  }
  return routes;
}

/**
 * Every method and path the document describes; a connection's operation also at the path
 * `default`'s is served at without the prefix (the parameter's description says so).
 */
export function describedRoutes(document: OpenApiDocument): Set<string> {
  const routes = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      routes.add(`${method} ${path}`);
      if (path.startsWith('/api/connections/{connection}/')) {
        routes.add(`${method} ${path.replace('/connections/{connection}', '')}`);
      }
    }
  }
  return routes;
}
