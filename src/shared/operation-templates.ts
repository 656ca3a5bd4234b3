// The upstream operations the console recognises in an integration's report: every platform
// operation of platform-operations.ts as a template (`{name}` for a path parameter), then the
// rate-limit table's paths for operations with no document ("limit paths"). A reported path is
// reduced to one of these before anything is stored, so no concrete value (a purpose GUID, an
// identifier) ever reaches the store. The reporter package's copy is generated from this list at
// `npm run reporter-templates` (scripts/write-reporter-templates.ts).
import { LIMIT_PATHS, PLATFORM_OPERATIONS } from './platform-operations';

/** One recognised operation: method and path template. */
export interface OperationTemplate {
  readonly method: 'GET' | 'POST';
  /** The documented path; `{name}` matches one segment, a trailing `*` one or more. */
  readonly template: string;
  /** Whether the template is a full documented path, or a rate-limit rule's (shortened) path. */
  readonly kind: 'operation' | 'limit-path';
}

/** Every template the console recognises, documented operations first. */
export const OPERATION_TEMPLATES: readonly OperationTemplate[] = [
  ...Object.values(PLATFORM_OPERATIONS).map(({ method, path }) => ({
    method,
    template: path,
    kind: 'operation' as const,
  })),
  ...Object.values(LIMIT_PATHS).map(({ method, path }) => ({
    method,
    template: path,
    kind: 'limit-path' as const,
  })),
];

/** The template of requests that match no recognised operation: counted, path discarded. */
export const OTHER_TEMPLATE = '(other)';

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/** True when `path` (no query) is exactly the template, or an instance of it. */
function matchesTemplate(template: string, path: string): boolean {
  const wanted = segmentsOf(template);
  const actual = segmentsOf(path);
  const wildcard = wanted.at(-1) === '*';
  const fixed = wildcard ? wanted.slice(0, -1) : wanted;
  if (wildcard ? actual.length <= fixed.length : actual.length !== fixed.length) return false;
  return fixed.every((segment, index) => /^\{\w+\}$/.test(segment) || actual[index] === segment);
}

/**
 * The template a request path (without query) belongs to, or {@link OTHER_TEMPLATE}. An exact
 * template (`…/profiles/{purposeGuid}`) reduces to itself. Limit paths also match below a
 * prefix (a tenant base path), as the rate-limit rules do.
 */
export function templateOfPath(path: string, templates = OPERATION_TEMPLATES): string {
  for (const entry of templates) {
    if (matchesTemplate(entry.template, path)) return entry.template;
  }
  const actual = segmentsOf(path);
  for (const entry of templates) {
    if (entry.kind !== 'limit-path') continue;
    const length = segmentsOf(entry.template).length;
    for (let start = 1; start + length <= actual.length + 1; start += 1) {
      if (matchesTemplate(entry.template, `/${actual.slice(start).join('/')}`)) {
        return entry.template;
      }
    }
  }
  return OTHER_TEMPLATE;
}

// An e-mail address, a phone number, whitespace (a name), or an overlong segment: what a
// personal identifier looks like in a path. UUIDs are not on the list: the documented path
// parameters (purposeGuid) are UUIDs of configuration objects, not of people.
const IDENTIFIER_LIKE = [/@/, /^\+?\d[\d().\s-]{6,}$/, /\s/, /^.{101,}$/];

/** True when a path segment (percent-decoded where possible) looks like a personal identifier. */
function isIdentifierLike(segment: string): boolean {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Left encoded: a malformed escape is judged as it stands.
  }
  return IDENTIFIER_LIKE.some((pattern) => pattern.test(decoded));
}

/** True when any segment of `path` looks like a personal identifier. */
export function pathHasIdentifier(path: string): boolean {
  return segmentsOf(path).some(isIdentifierLike);
}
