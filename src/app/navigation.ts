// The console's pages in navigation order. Later pages join this list as they are built.
import { AUDIT_TRAIL_ROLES, roleAllows, type Role } from '../shared/session';

export interface NavigationEntry {
  to: string;
  label: string;
  description: string;
  /** Roles that may use the page; leave out when every role may. Others do not see the entry. */
  roles?: readonly Role[];
  /**
   * `connection`: one connection's page, at `/c/{connection}` + `to`. `first`: console-wide, but
   * it still reaches the first connection's platform only, and the header says so. Absent: truly
   * console-wide (the console's own records), no connection shown.
   */
  scope?: 'connection' | 'first';
  /**
   * A console-wide page (its data belongs to no one connection): it needs a console-wide role, so
   * a person with roles in named connections only does not see it.
   */
  consoleWide?: true;
}

const NAVIGATION: readonly NavigationEntry[] = [
  {
    to: '/event-types',
    scope: 'connection',
    label: 'Event types',
    description: 'Activity-log event types by module and object type',
  },
  {
    to: '/rate-limits',
    scope: 'connection',
    label: 'Rate limits',
    description: '429 incidents, live, and how close each request limit is',
  },
  {
    to: '/alerts',
    scope: 'first',
    label: 'Alerts',
    description: 'Forecast of each limit running out, and where alerts about it are sent',
    // Its destinations and thresholds serve every connection, so its routes need a console-wide role.
    consoleWide: true,
  },
  {
    to: '/planning',
    scope: 'connection',
    label: 'Planning',
    description:
      'What would happen under another rate-limit policy, and how far the account is on v4',
  },
  {
    to: '/data-subjects',
    scope: 'connection',
    label: 'Data subjects',
    description: 'Look up a data subject through v4 and compare with the legacy call',
    roles: ['admin'],
  },
  {
    to: '/audit',
    label: 'Audit',
    description: 'Every lookup of personal data: who, when, which operation, what came of it',
    roles: AUDIT_TRAIL_ROLES,
    consoleWide: true,
  },
  {
    to: '/accountability',
    label: 'Accountability',
    description:
      'For a period: who was looked up, by whom, under which purposes, and every administrative change',
    roles: AUDIT_TRAIL_ROLES,
    consoleWide: true,
  },
  {
    to: '/integrations',
    scope: 'connection',
    label: 'Integrations',
    description: 'Register the account’s other clients so they report their requests and 429s',
    roles: ['admin'],
  },
  {
    to: '/sessions',
    label: 'Sessions',
    description: 'Where you are signed in, and signing out there; admins see everyone’s',
    consoleWide: true,
  },
  {
    to: '/tokens',
    label: 'Tokens',
    description: 'Tokens that let scripts call the console’s API as you, and revoking them',
    consoleWide: true,
  },
];

/**
 * The entries a person may use, in order. A connection's page restricted to some roles is decided
 * by `connectionRole`, the person's role in the connection the links lead to (their console-wide
 * `role` when not given); every other entry by the console-wide `role`. Without one (roles in
 * named connections only) the console-wide pages are hidden, and so are the other pages
 * restricted to some roles: those do not name a connection whose role could apply.
 */
export function navigationFor(
  role: Role | undefined,
  connectionRole: Role | undefined = role,
  entries: readonly NavigationEntry[] = NAVIGATION,
): NavigationEntry[] {
  return entries.filter((entry) => {
    if (entry.scope === 'connection' && entry.roles) {
      return connectionRole !== undefined && roleAllows(connectionRole, entry.roles);
    }
    return role === undefined ? !entry.consoleWide && !entry.roles : roleAllows(role, entry.roles);
  });
}

/** The page's entry: `/c/uat/event-types` is the event types' entry. */
function entryOf(pathname: string): NavigationEntry | undefined {
  const path = pathname.replace(/^\/c\/[^/]+(?=\/)/, '');
  return NAVIGATION.find(
    (candidate) => path === candidate.to || path.startsWith(`${candidate.to}/`),
  );
}

/** Whether the page at `pathname` is console-wide yet serves the first connection's platform. */
export function servesFirstConnection(pathname: string): boolean {
  return entryOf(pathname)?.scope === 'first';
}

/** The product's name, last in every document title. */
const PRODUCT_NAME = 'Privacy API Console';

/**
 * The document title of the page at `pathname`, e.g. "Rate limits · Privacy API Console", so
 * tabs and history entries can be told apart. Unknown paths are "Page not found".
 */
export function documentTitleFor(pathname: string): string {
  const entry = entryOf(pathname);
  const page = pathname === '/sign-in' ? 'Sign in' : (entry?.label ?? 'Page not found');
  return `${page} · ${PRODUCT_NAME}`;
}
