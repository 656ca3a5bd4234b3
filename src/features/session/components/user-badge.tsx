// The signed-in user in the header: name, role, and signing out.
import { useState } from 'react';
import type { Session } from '../../../shared/session';
import { useSignOutHere } from '../api/session';
import './session.css';

const ROLE_LABELS: Record<Session['role'], string> = {
  admin: 'Admin',
  auditor: 'Auditor',
  support: 'Support',
};

/** Shows `session`'s user and role with a sign-out button. */
export function UserBadge({ session }: { session: Session }) {
  const signOutHere = useSignOutHere();
  const [signingOut, setSigningOut] = useState(false);

  const onSignOut = async () => {
    setSigningOut(true);
    await signOutHere();
  };

  return (
    <div className="user-badge">
      <span className="user-badge-avatar" aria-hidden="true">
        {session.username.slice(0, 1).toUpperCase()}
      </span>
      <span className="user-badge-name">
        <span className="visually-hidden">Signed in as </span>
        {session.username}
      </span>
      <span className="user-badge-role" data-role={session.role}>
        <span className="visually-hidden">, role </span>
        {ROLE_LABELS[session.role]}
      </span>
      <button type="button" className="button" onClick={onSignOut} disabled={signingOut}>
        Sign out
      </button>
    </div>
  );
}
