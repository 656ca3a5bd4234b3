// Guards a page meant for some roles only: others see why instead of a page of 403 errors.
import type { ReactNode } from 'react';
import { StatusPanel } from '../../../components/ui/status-panel';
import { roleAllows, type Role } from '../../../shared/session';
import { useSession } from '../../../lib/session-query';

/**
 * Renders `children` only for a signed-in user with one of `roles`; others read `reason`, which
 * says what the page holds ("shows personal data" is true of some admin pages, not of all).
 * `role`: the role that decides on this page when it is not the console-wide one (a connection's
 * page: the person's role in that connection).
 */
export function RequireRole({
  roles,
  reason,
  role: pageRole,
  children,
}: {
  roles: readonly Role[];
  reason: string;
  role?: Role | undefined;
  children: ReactNode;
}) {
  const { data: session } = useSession();
  if (!session) return null;
  const role = pageRole ?? session.role;
  if (!roleAllows(role, roles)) {
    return (
      <section className="page">
        {/* The page's one heading: the panel is all there is to read. */}
        <StatusPanel title="Not available for your role" tone="warning" headingLevel={1}>
          <p>
            {reason}{' '}
            {role
              ? `The ${role} role cannot use it.`
              : 'It needs a console-wide role, and yours are in named connections only.'}{' '}
            Ask a console administrator if you need it.
          </p>
        </StatusPanel>
      </section>
    );
  }
  return children;
}
