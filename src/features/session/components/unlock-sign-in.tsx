// For admins, below the Sessions page (where sign-ins are managed): lifts a user's sign-in lockout
// after too many wrong passwords, which the locked-out user is told to ask an administrator for.
// The command line does the same: npm run users -- unlock.
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/form-field';
import { StatusLine } from '../../../components/ui/status-line';
import { SubmitButton } from '../../../components/ui/submit-button';
import { ApiError } from '../../../lib/api-client';
import { useUnlockSignIn } from '../api/unlock-sign-in';
import './session.css';

export function UnlockSignIn() {
  const unlock = useUnlockSignIn();
  const [username, setUsername] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (username.trim()) unlock.mutate(username.trim());
  };
  const failure =
    unlock.error instanceof ApiError
      ? (unlock.error.problem.detail ?? unlock.error.problem.title)
      : unlock.error
        ? 'The unlock could not be sent. Try again.'
        : null;
  return (
    <section className="card unlock-sign-in" aria-labelledby="unlock-sign-in-title">
      <h2 id="unlock-sign-in-title">Unlock a user’s sign-in</h2>
      <p>
        Ten wrong passwords in 15 minutes pause a user’s sign-in for 15 minutes, even for the right
        password. Unlock it here when the user cannot wait.
      </p>
      <form className="unlock-sign-in-form" onSubmit={submit}>
        <FormField id="unlock-username" label="Console user">
          <input
            id="unlock-username"
            className="input"
            value={username}
            autoComplete="off"
            onChange={(event) => setUsername(event.target.value)}
          />
        </FormField>
        <SubmitButton busy={unlock.isPending} busyLabel="Unlocking…">
          Unlock sign-in
        </SubmitButton>
      </form>
      {unlock.data ? (
        <StatusLine>
          {unlock.data.wasLocked
            ? `${unlock.data.username} can sign in again now.`
            : `${unlock.data.username} was not locked: nothing to unlock, they can sign in as usual.`}
        </StatusLine>
      ) : null}
      {failure ? <StatusLine>{failure}</StatusLine> : null}
    </section>
  );
}
