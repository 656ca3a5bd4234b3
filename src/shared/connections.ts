// The platform connections one console serves (production, UAT, regional tenants): their names,
// colours and the summary the BFF sends the SPA. A connection is one platform account: its own
// host, credential, tier, limits, data and records.
import * as z from 'zod/mini';
import { RoleSchema } from './session';

/**
 * A connection's name: it is part of every URL of its pages and API, of its Redis keys and of
 * every record it made, so it is short, lower-case and never changes meaning once records exist.
 */
export const CONNECTION_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * The one connection of a console configured the old way (UPSTREAM_BASE_URL and friends), and the
 * connection every record stored before connections existed belongs to.
 */
export const DEFAULT_CONNECTION = 'default';

/**
 * The colours a connection may be marked with in the header. A fixed palette rather than any CSS
 * colour: each is paired with text that keeps 4.5:1 contrast in both themes, and production can
 * never be configured to look like a neutral page by accident of a hex code.
 */
export const CONNECTION_COLOURS = [
  'blue',
  'green',
  'purple',
  'orange',
  'red',
  'teal',
  'grey',
] as const;
export const ConnectionColourSchema = z.enum(CONNECTION_COLOURS);
export type ConnectionColour = z.infer<typeof ConnectionColourSchema>;

/** One connection as `GET /api/connections` lists it: only those the person has a role in. */
export const ConnectionSummarySchema = z.object({
  name: z.string().check(z.regex(CONNECTION_NAME_PATTERN)),
  label: z.string(),
  colour: ConnectionColourSchema,
  /** The person's role in this connection. */
  role: RoleSchema,
});
export type ConnectionSummary = z.infer<typeof ConnectionSummarySchema>;

/** `GET /api/connections`: the connections the signed-in person has a role in, in switcher order. */
export const ConnectionListSchema = z.object({ connections: z.array(ConnectionSummarySchema) });
export type ConnectionList = z.infer<typeof ConnectionListSchema>;

/** Where one connection's API lives: `/api/connections/{name}`, followed by the area's path. */
/** The page address of one connection's page: `/c/uat/event-types`. */
export function connectionPagePath(connection: string, page: string): string {
  return `/c/${connection}/${page}`;
}

export const CONNECTION_API_PREFIX = '/api/connections/';

/**
 * `/api/event-types/x` of connection `uat` -> `/api/connections/uat/event-types/x`: each
 * connection-scoped route is written once, as the area's path, and served under each connection.
 */
export function connectionApiPath(connection: string, apiPath: string): string {
  if (!apiPath.startsWith('/api/')) throw new Error(`not an API path: ${apiPath}`);
  return `${CONNECTION_API_PREFIX}${connection}/${apiPath.slice('/api/'.length)}`;
}

/**
 * The connection a request path names, or undefined for a path outside the connections. The name
 * is returned as written (unchecked): the caller answers 404 when no such connection exists.
 */
export function connectionOfPath(path: string): string | undefined {
  if (!path.startsWith(CONNECTION_API_PREFIX)) return undefined;
  const name = path.slice(CONNECTION_API_PREFIX.length).split('/', 1)[0];
  return name === '' ? undefined : name;
}

/**
 * The area's path of a request path: `/api/connections/uat/rate-limits/stream` ->
 * `/api/rate-limits/stream`, any other path as it is; for rules written once per route (the live
 * stream's exemptions) that hold under every connection alike.
 */
export function areaPathOf(path: string): string {
  const connection = connectionOfPath(path);
  if (connection === undefined) return path;
  return `/api${path.slice(CONNECTION_API_PREFIX.length + connection.length)}`;
}
