// How a route module describes its operations for the console's OpenAPI document: beside the
// handler, with the zod schemas the handler already validates with and the browser reads answers
// with, so the description cannot say something the code does not do (docs/architecture.md §6).
import type * as z from 'zod/v4/core';
import type { Role } from '../../shared/session';
import { connectionApiPath } from '../../shared/connections';

/** HTTP methods the console's API uses. */
export type ApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an operation: a signed-in person with one of the console-wide roles, anyone
 * signed in whatever their roles (their own view, such as their connections), nobody in
 * particular (sign-in), an integration.
 */
export type ApiAccess =
  | { readonly session: readonly Role[] }
  | { readonly signedIn: true }
  | { readonly public: true }
  | { readonly integrationKey: true };

/** One successful answer: a JSON body of `schema`, another media type, or no body. */
export interface ApiAnswer {
  readonly description: string;
  /** The body's schema (JSON unless `mediaType` says otherwise). */
  readonly schema?: z.$ZodType;
  /** Default `application/json`; a body without schema is described as a plain string. */
  readonly mediaType?: string;
  /** Further media types the same answer may come in (an export as CSV or JSON), with schemas. */
  readonly alsoAs?: readonly { readonly mediaType: string; readonly schema?: z.$ZodType }[];
  /** Response headers worth naming, with their meaning. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One operation of the console's API. */
export interface ApiOperation {
  readonly method: ApiMethod;
  /** The path below the module's base, Hono style (`/destinations/:id`); `/` for the base. */
  readonly path: string;
  /** Unique across the API, camelCase. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: ApiAccess;
  /** Path parameters' schema (an object of strings); absent ones are described as strings. */
  readonly params?: z.$ZodType;
  /** The query's schema (an object); each property becomes one query parameter. */
  readonly query?: z.$ZodType;
  /** The JSON request body's schema. */
  readonly body?: z.$ZodType;
  /** Successful answers by status. */
  readonly responses: Readonly<Record<number, ApiAnswer>>;
  /**
   * Problem+json answers this operation gives itself, by status, with their meaning. 401 (no
   * session), 403 (Origin, CSRF, role) and the catch-all default are added for every operation.
   */
  readonly problems?: Readonly<Record<number, string>>;
  /** Whether the `X-CSRF: 1` header may be left out (security/csrf-header.ts exemptions). */
  readonly csrfExempt?: boolean;
  /** Only served in demo mode. */
  readonly demoOnly?: boolean;
}

/** The operations of one route module, mounted at `base` (e.g. `/api/alerts`). */
export interface ApiModule {
  readonly base: string;
  /**
   * `connection`: one platform connection's operations, served under
   * `/api/connections/{connection}` + base (and `default`'s at base too); a person's role is the
   * one they hold in that connection. Absent: console-wide.
   */
  readonly scope?: 'connection';
  /** The tag grouping them in the document, and what the group is for. */
  readonly tag: { readonly name: string; readonly description: string };
  readonly operations: readonly ApiOperation[];
}

/** Every role: what most read-only operations allow. */
export const ANY_ROLE: readonly Role[] = ['admin', 'auditor', 'support'];
/** Admins only. */
export const ADMIN_ONLY: readonly Role[] = ['admin'];
/** The roles that work the console (demo controls): everyone but the auditor, who changes nothing. */
export const OPERATORS: readonly Role[] = ['admin', 'support'];

/** Where a module's operations are described and matched: under the connection for scoped ones. */
export function describedBase(module: ApiModule): string {
  return module.scope === 'connection'
    ? connectionApiPath(':connection', module.base)
    : module.base;
}
