// Guards a page meant for some roles only: others see why instead of a page of 403 errors.
import type { ReactNode } from 'react';
import { StatusPanel } from '../../../components/ui/status-panel';
import { roleAllows, type Role } from '../../../shared/session';
import type { ConnectionSummary } from '../../../shared/connections';
import { useSession } from '../../../lib/session-query';

/**
 * Renders `children` only for a signed-in user with one of `roles`; others read `reason`, which
 * says what the page holds ("shows personal data" is true of some admin pages, not of all). On a
 * connection's page (`connection`) the person's role in that connection decides, not their
 * console-wide one.
 */
export function RequireRole({
  roles,
  reason,
  connection,
  children,
}: {
  roles: readonly Role[];
  reason: string;
  connection?: Pick<ConnectionSummary, 'label' | 'role'>;
  children: ReactNode;
}) {
  const { data: session } = useSession();
  if (!session) return null;
  if (connection) {
    return roleAllows(connection.role, roles) ? (
      children
    ) : (
      <NotForRole>
        {reason} The {connection.role} role in {connection.label} cannot use it.
      </NotForRole>
    );
  }
  if (!roleAllows(session.role, roles)) {
    return (
      <NotForRole>
        {reason}{' '}
        {session.role
          ? `The ${session.role} role cannot use it.`
          : 'It needs a console-wide role, and yours are in named connections only.'}
      </NotForRole>
    );
  }
  return children;
}

/** The page's one panel: why the person cannot use it (`children`), and whom to ask. */
function NotForRole({ children }: { children: ReactNode }) {
  return (
    <section className="page">
      {/* The page's one heading: the panel is all there is to read. */}
      <StatusPanel title="Not available for your role" tone="warning" headingLevel={1}>
        <p>{children} Ask a console administrator if you need it.</p>
      </StatusPanel>
    </section>
  );
}
