// Guards a page meant for some roles only: others see why instead of a page of 403 errors.
import type { ReactNode } from 'react';
import { StatusPanel } from '../../../components/ui/status-panel';
import { roleAllows, type Role } from '../../../shared/session';
import { useSession } from '../../../lib/session-query';

/** Renders `children` only for a signed-in user with one of `roles`. */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const { data: session } = useSession();
  if (!session) return null;
  if (!roleAllows(session.role, roles)) {
    return (
      <section className="page">
        <StatusPanel title="Not available for your role" tone="warning">
          <p>
            This page shows personal data, which the {session.role} role cannot see. Ask a console
            administrator if you need it.
          </p>
        </StatusPanel>
      </section>
    );
  }
  return children;
}
