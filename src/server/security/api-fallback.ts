// The answer for an /api request no route took: 405 with an Allow header when the path exists
// for other methods, 404 otherwise. Derived from the app's own route table, so routes added later
// are covered without a list to keep in step.
import type { Handler, Hono } from 'hono';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { problemResponse } from '../http/problem';
import { SECURITY_PROBLEM_TYPES } from './security-problems';

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

function knownPaths(app: Hono<AppEnv>): KnownPath[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    // `ALL` entries are middleware and catch-alls, not resources.
    if (route.method === 'ALL' || !route.path.startsWith('/api/')) continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ pattern: patternOf(path), methods }));
}

/** The catch-all handler for /api; give it the app whose routes it describes. */
export function apiFallback(app: Hono<AppEnv>): Handler<AppEnv> {
  let known: KnownPath[] | undefined;
  return (c) => {
    // Built on first use, when every route has been registered.
    known ??= knownPaths(app);
    const allowed = new Set<string>();
    for (const entry of known) {
      if (entry.pattern.test(c.req.path)) for (const method of entry.methods) allowed.add(method);
    }
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      return problemResponse(
        c,
        {
          type: SECURITY_PROBLEM_TYPES.methodNotAllowed,
          title: 'Method not allowed',
          status: 405,
          detail: `${c.req.method} is not supported here; use ${allow}.`,
        },
        { Allow: allow },
      );
    }
    return problemResponse(c, {
      type: PROBLEM_TYPES.notFound,
      title: 'No such API route',
      status: 404,
      detail: 'This address is not part of the console API.',
    });
  };
}
