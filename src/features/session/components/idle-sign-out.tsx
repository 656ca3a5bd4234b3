// Idle sign-out as a person meets it: a minute before SESSION_IDLE_MINUTES runs out a notice says
// so, with a button to stay signed in; at the end the page signs out and the sign-in page says
// why. Only a person's actions count: a click or a key press restarts the server's idle timer
// (at most once a minute), the page's own polling does not.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { onSessionExtended, sessionExtendedAt } from '../../../lib/api-client';
import { getSession } from '../../../lib/session-query';
import { resetForSession } from '../api/session';
import { recordSessionEnd } from '../session-end';
import './session.css';

/** How long before the end the notice shows. */
const WARN_BEFORE_MS = 60_000;
/** A person's action restarts the server's timer at most this often. */
const KEEP_ALIVE_EVERY_MS = 60_000;

/** Watches the session's idle time; renders the notice in its last minute. */
export function IdleSignOut({ idleSeconds }: { idleSeconds: number | undefined }) {
  const queryClient = useQueryClient();
  const [extendedAt, setExtendedAt] = useState(sessionExtendedAt);
  const [now, setNow] = useState(Date.now);

  useEffect(() => onSessionExtended(setExtendedAt), []);

  // A click or key press after a quiet minute tells the server a person is here.
  useEffect(() => {
    const onAction = () => {
      if (Date.now() - sessionExtendedAt() >= KEEP_ALIVE_EVERY_MS) {
        void getSession({ background: false }).catch(() => undefined);
      }
    };
    window.addEventListener('pointerdown', onAction, { passive: true });
    window.addEventListener('keydown', onAction, { passive: true });
    return () => {
      window.removeEventListener('pointerdown', onAction);
      window.removeEventListener('keydown', onAction);
    };
  }, []);

  useEffect(() => {
    if (!idleSeconds) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [idleSeconds]);

  const endsAt = idleSeconds ? extendedAt + idleSeconds * 1000 : Infinity;
  const left = endsAt - now;

  useEffect(() => {
    if (left > 0) return;
    recordSessionEnd('idle');
    resetForSession(queryClient, null);
  }, [left, queryClient]);

  if (!idleSeconds || left > WARN_BEFORE_MS || left <= 0) return null;
  const seconds = Math.ceil(left / 1000);
  return (
    <div className="idle-notice" role="alertdialog" aria-labelledby="idle-notice-text">
      <p id="idle-notice-text">
        Nothing has been done in the console for a while: you will be signed out in{' '}
        <strong>{seconds}</strong> second{seconds === 1 ? '' : 's'}.
      </p>
      <button
        type="button"
        className="button button-primary"
        // Focus moves here when the notice opens, so Enter keeps the session.
        autoFocus
        onClick={() => void getSession({ background: false })}
      >
        Stay signed in
      </button>
    </div>
  );
}
