// The signed-in user in the header: name, role, and signing out.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Session } from '../../../shared/session';
import { signOut } from '../api/session';
import './session.css';

const ROLE_LABELS: Record<Session['role'], string> = {
  admin: 'Admin',
  auditor: 'Auditor',
  support: 'Support',
};

/** Shows `session`'s user and role with a sign-out button. */
export function UserBadge({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const onSignOut = async () => {
    setSigningOut(true);
    // Leave the page in the same step as the data is dropped, so nothing renders without it.
    await signOut(queryClient, () => void navigate('/sign-in'));
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
