// The signed-in user in the header: name, role, and signing out.
import { useState } from 'react';
import type { Role, Session } from '../../../shared/session';
import { useSignOutHere } from '../api/session';
import './session.css';

const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  auditor: 'Auditor',
  support: 'Support',
};

/** Shown instead of a role for a person with roles in named connections only. */
const CONNECTION_ROLES_LABEL = 'Per connection';

/** Shows `session`'s user and role with a sign-out button. */
export function UserBadge({ session }: { session: Session }) {
  const signOutHere = useSignOutHere();
  const [signingOut, setSigningOut] = useState(false);

  const onSignOut = async () => {
    setSigningOut(true);
    await signOutHere();
  };

  // A provider sign-in carries the person's name: people know themselves by it, not by the
  // username the console derived from their e-mail; the username stays on hover, and so does the
  // whole name where a narrow header cuts it short.
  const shown = session.name ?? session.username;

  return (
    <div className="user-badge">
      <span className="user-badge-avatar" aria-hidden="true">
        {shown.slice(0, 1).toUpperCase()}
      </span>
      <span
        className="user-badge-name"
        title={session.name ? `${session.name} (${session.username})` : session.username}
      >
        <span className="visually-hidden">Signed in as </span>
        {shown}
      </span>
      <span className="user-badge-role" data-role={session.role}>
        <span className="visually-hidden">, role </span>
        {session.role ? ROLE_LABELS[session.role] : CONNECTION_ROLES_LABEL}
      </span>
      <button type="button" className="button" onClick={onSignOut} disabled={signingOut}>
        Sign out
      </button>
    </div>
  );
}
