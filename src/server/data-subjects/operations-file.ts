// DATA_SUBJECT_OPERATIONS_FILE: overrides of the operations catalog's paths and parameter
// locations, so the assumed paths of rows 5–10 of the migration guide's v4 table (docs/platform-contract.md), or of any other operation, can be
// corrected without a code change. Read and validated once at start; a bad file stops the
// process with one line naming the variable and what is wrong.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  BUILT_IN_OPERATIONS,
  PARAM_LOCATIONS,
  type DataSubjectOperation,
  type ParamLocation,
} from '../../shared/data-subject-operations';
import { contractOperationAt } from '../../shared/data-subject-contract';
import { matchModuleRule } from '../../shared/rate-limits';
import { ConfigError } from '../config/config';

const VARIABLE = 'DATA_SUBJECT_OPERATIONS_FILE';

// Plain path segments or one `{placeholder}` each; no dot segments, no encoded characters.
const PATH_SEGMENT = /^(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*|\{[A-Za-z][A-Za-z0-9_]{0,63}\})$/;
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]{0,63})\}/g;
const WIRE_NAMES: Record<ParamLocation, RegExp> = {
  // An RFC 9110 token.
  header: /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/,
  query: /^[A-Za-z0-9._~-]{1,64}$/,
  path: /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
};
/** Headers the BFF sets itself or that change how HTTP works: never a parameter's name. */
const RESERVED_HEADERS =
  /^(authorization|cookie|host|accept|accept-encoding|content-type|content-length|transfer-encoding|connection|keep-alive|te|trailer|upgrade|expect|forwarded|proxy-.*|x-forwarded-.*)$/i;

const Placement = z.strictObject({
  location: z.enum(PARAM_LOCATIONS).optional(),
  wireName: z.string().min(1).max(64).optional(),
});

const OperationOverride = z.strictObject({
  path: z
    .string()
    .max(300)
    .refine((path) => path.startsWith('/') && path.length > 1, 'must start with "/"')
    .refine(
      (path) =>
        path
          .slice(1)
          .split('/')
          .every((segment) => PATH_SEGMENT.test(segment)),
      'must be plain segments of letters, digits, "-", "_", ".", "~" or one {placeholder} each',
    )
    .optional(),
  params: z.record(z.string(), Placement).optional(),
  continuation: z
    .strictObject({
      location: z.enum(PARAM_LOCATIONS).optional(),
      wireName: z.string().min(1).max(64).optional(),
      responseField: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)
        .optional(),
    })
    .optional(),
});

const OverrideFile = z.strictObject({
  operations: z.record(z.string(), OperationOverride),
});

/** Thrown with the line to print; `ConfigError` so the process entry reports it like the others. */
function fail(reason: string, file: string): never {
  throw new ConfigError(`${VARIABLE} ${reason} (file ${file})`);
}

/** Checks an operation after overrides: wire names valid and unique, placeholders matching. */
function checkOperation(operation: DataSubjectOperation, file: string): void {
  const where = `operations.${operation.id}`;
  const seen = new Set<string>();
  const wires = operation.params.map((param) => ({
    what: `params.${param.name}`,
    location: param.location,
    wireName: param.wireName,
  }));
  if (operation.continuation) {
    wires.push({ what: 'continuation', ...operation.continuation });
  }
  for (const { what, location, wireName } of wires) {
    if (!WIRE_NAMES[location].test(wireName)) {
      fail(`${where}.${what}.wireName "${wireName}" is not a valid ${location} name`, file);
    }
    if (location === 'header' && RESERVED_HEADERS.test(wireName)) {
      fail(`${where}.${what}.wireName "${wireName}" is a header the console sets itself`, file);
    }
    const key = `${location}:${location === 'header' ? wireName.toLowerCase() : wireName}`;
    if (seen.has(key)) fail(`${where}.${what} uses the ${location} name "${wireName}" twice`, file);
    seen.add(key);
  }
  const placeholders = [...operation.path.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  const pathParams = operation.params.filter((param) => param.location === 'path');
  for (const param of pathParams) {
    if (!param.required)
      fail(`${where}.params.${param.name} is optional, so it cannot go in the path`, file);
    if (!placeholders.includes(param.wireName)) {
      fail(`${where}.path must contain {${param.wireName}} for params.${param.name}`, file);
    }
  }
  for (const name of placeholders) {
    if (!pathParams.some((param) => param.wireName === name)) {
      fail(`${where}.path has {${name}}, which no path parameter fills`, file);
    }
  }
  if (operation.continuation?.location === 'path') {
    fail(`${where}.continuation cannot travel in the path`, file);
  }
}

/** Applies `overrides` to the built-in catalog. */
function applyOverrides(
  overrides: z.infer<typeof OverrideFile>,
  file: string,
): DataSubjectOperation[] {
  for (const id of Object.keys(overrides.operations)) {
    if (!BUILT_IN_OPERATIONS.some((operation) => operation.id === id)) {
      fail(
        `operations.${id} is not an operation of the catalog (see GET /api/data-subjects/operations)`,
        file,
      );
    }
  }
  return BUILT_IN_OPERATIONS.map((operation) => {
    const override = overrides.operations[operation.id];
    if (!override) return operation;
    for (const name of Object.keys(override.params ?? {})) {
      if (!operation.params.some((param) => param.name === name)) {
        fail(
          `operations.${operation.id}.params.${name} is not a parameter of that operation`,
          file,
        );
      }
    }
    if (override.continuation && !operation.continuation) {
      fail(
        `operations.${operation.id}.continuation: that operation does not page with a continuation token`,
        file,
      );
    }
    const path = override.path ?? operation.path;
    const updated: DataSubjectOperation = {
      ...operation,
      path,
      overridden: true,
      // Still documented only if the platform's documents have the new address too.
      documented: contractOperationAt(operation.method, path) !== undefined,
      moduleRule: matchModuleRule(operation.method, path)?.id ?? null,
      params: operation.params.map((param) => {
        const placement = override.params?.[param.name];
        return placement
          ? {
              ...param,
              location: placement.location ?? param.location,
              wireName: placement.wireName ?? param.wireName,
            }
          : param;
      }),
      ...(operation.continuation
        ? { continuation: { ...operation.continuation, ...override.continuation } }
        : {}),
    };
    checkOperation(updated, file);
    return updated;
  });
}

/**
 * One line per operation whose identifier an override moved out of a header: it then travels in
 * the upstream URL, where proxies and the platform's access logs may keep it (docs/product.md §4 keeps
 * identifiers out of URLs), so the operator is told at start.
 */
export function identifierPlacementWarnings(operations: readonly DataSubjectOperation[]): string[] {
  return operations.flatMap((operation) =>
    operation.params
      .filter((param) => param.format === 'identifier' && param.location !== 'header')
      .map(
        (param) =>
          `DATA_SUBJECT_OPERATIONS_FILE puts ${operation.id}'s ${param.name} in the ${param.location}: it will be part of upstream URLs`,
      ),
  );
}

/** Describes the first zod issue as `path.to.field message`. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  const path = issue.path.map(String).join('.');
  const message =
    issue.code === 'unrecognized_keys'
      ? `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`
      : /received undefined$/.test(issue.message)
        ? 'is missing'
        : issue.message.replace(/^Invalid input: /, 'must be valid: ');
  return path ? `${path} ${message}` : message;
}

/**
 * The operations catalog: the built-in one, with the overrides of `file` applied when given.
 * Throws ConfigError with one line when the file cannot be read or is not a valid override.
 */
export function loadOperationsCatalog(file: string | undefined): DataSubjectOperation[] {
  if (!file) return [...BUILT_IN_OPERATIONS];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    fail(
      code === 'ENOENT'
        ? 'names a file that does not exist'
        : `cannot be read (${code ?? 'error'})`,
      file,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail('is not valid JSON', file);
  }
  const parsed = OverrideFile.safeParse(json);
  if (!parsed.success) fail(`is invalid: ${describeIssue(parsed.error)}`, file);
  return applyOverrides(parsed.data, file);
}
