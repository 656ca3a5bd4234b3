// The name people read for a platform endpoint ("GET /rest/api/consent/v4/datasubjects/details"
// -> "v4 · Details with purposes"), so rows about limits, breaches and usage name the operation
// and keep the path as a secondary detail. Names come from the data-subject catalog and, for the
// other operations, from the table of platform operations.
import { BUILT_IN_OPERATIONS, operationLabel } from './data-subject-operations';
import { templateOfPath } from './operation-templates';
import {
  LIMIT_PATHS,
  OTHER_OPERATION_NAMES,
  PLATFORM_OPERATIONS,
  type PlatformOperation,
} from './platform-operations';

const OTHER_OPERATIONS: ReadonlyArray<readonly [PlatformOperation, string]> = Object.entries(
  OTHER_OPERATION_NAMES,
).map(([id, name]) => [
  (PLATFORM_OPERATIONS as Record<string, PlatformOperation>)[id] ??
    (LIMIT_PATHS as Record<string, PlatformOperation>)[id]!,
  name,
]);

/** The rate-limit table's paths: their rules count any method, so a name holds for each. */
const LIMIT_PATH_TEMPLATES = new Set<string>(Object.values(LIMIT_PATHS).map(({ path }) => path));

/**
 * The operation's name for an endpoint key ("GET /path", a concrete path or its template), or
 * null when it is no operation the console knows (the page then shows the path alone).
 */
export function endpointName(endpoint: string): string | null {
  const [method, path] = endpoint.split(' ', 2);
  if (!method || !path) return null;
  const template = templateOfPath(path.split('?')[0]!);
  const documented = BUILT_IN_OPERATIONS.find(
    (operation) => operation.method === method && operation.path === template,
  );
  if (documented) return operationLabel(documented);
  const other = OTHER_OPERATIONS.find(
    ([operation]) =>
      operation.path === template &&
      (operation.method === method || LIMIT_PATH_TEMPLATES.has(template)),
  );
  return other?.[1] ?? null;
}
