// Page `/sign-in`: name and password, a plain-language reason when it fails (including how long to
// wait after too many attempts), then back to the page the user came from.
import { useEffect, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { BrandMark } from '../../../components/ui/brand-mark';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useCountdown } from '../../../components/ui/use-countdown';
import { ApiError } from '../../../lib/api-client';
import { SESSION_PROBLEM_TYPES, SIGN_IN_LOCK_SECONDS } from '../../../shared/session';
import { useSession } from '../../../lib/session-query';
import { useSignIn } from '../api/session';
import { useSignInOptions } from '../api/sign-in-options';
import { safeReturnTo } from '../../../shared/return-to';
import { peekSessionEnd, SESSION_END_MESSAGES, takeSessionEnd } from '../session-end';
import './session.css';

interface Failure {
  message: string;
  /** When signing in may be tried again (epoch ms), for throttling. */
  retryAt?: number;
}

function failureOf(error: unknown): Failure {
  if (!(error instanceof ApiError)) {
    return { message: 'Something went wrong in this page. Reload it and try again.' };
  }
  const { problem } = error;
  if (problem.type === SESSION_PROBLEM_TYPES.signInFailed) {
    return { message: 'Wrong username or password. Check both and try again.' };
  }
  if (problem.type === SESSION_PROBLEM_TYPES.signInThrottled) {
    const seconds = problem.retryAfterSeconds ?? SIGN_IN_LOCK_SECONDS;
    return {
      // Only a lock is worth asking someone to lift: a pause of seconds is over first.
      message:
        seconds >= SIGN_IN_LOCK_SECONDS
          ? 'Too many failed attempts, so signing in is locked for a while. If you cannot wait, ask whoever runs the console to unlock your sign-in.'
          : 'Too many failed attempts in a row, so signing in waits a moment.',
      retryAt: Date.now() + seconds * 1000,
    };
  }
  if (problem.status === 0) {
    return { message: 'The console server could not be reached. Check your connection.' };
  }
  return { message: problem.detail ?? problem.title };
}

function ThrottleCountdown({ retryAt }: { retryAt: number }) {
  const seconds = useCountdown(retryAt);
  return seconds > 0 ? (
    <>
      {' '}
      Try again in <strong>{seconds}</strong> second{seconds === 1 ? '' : 's'}.
    </>
  ) : (
    <> You can try again now.</>
  );
}

/** The sign-in page. Already signed in: goes straight on to where the user was heading. */
export function SignInPage() {
  const [searchParams] = useSearchParams();
  const returnTo = safeReturnTo(searchParams.get('returnTo'));
  const session = useSession();
  const signIn = useSignIn();
  const options = useSignInOptions();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<Failure | null>(null);
  // Why the last session ended, said once: read here, forgotten after the first render.
  const [ended] = useState(peekSessionEnd);
  useEffect(() => {
    takeSessionEnd();
  }, []);

  if (session.data) return <Navigate to={returnTo} replace />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = event.currentTarget.elements.namedItem('password') as HTMLInputElement | null;
    setFailure(null);
    signIn.mutate(
      {
        username: String(form.get('username') ?? ''),
        password: String(form.get('password') ?? ''),
      },
      {
        onSuccess: () => navigate(returnTo, { replace: true }),
        onError: (error) => {
          setFailure(failureOf(error));
          // Keep the name, clear the password and put the cursor back there for another try.
          if (password) {
            password.value = '';
            password.focus();
          }
        },
      },
    );
  };

  return (
    <main className="sign-in" id="main">
      <div className="sign-in-card card">
        <BrandMark className="sign-in-brand" size={32} />
        <h1>Sign in</h1>
        {/* Said until the next attempt: next to "Wrong username or password" it only confuses. */}
        {ended && !failure && !signIn.isPending ? (
          <p className="sign-in-ended" role="status">
            {SESSION_END_MESSAGES[ended]}
          </p>
        ) : null}
        {options.provider ? (
          <a
            className="button button-primary sign-in-provider"
            href={`/auth/sign-in?returnTo=${encodeURIComponent(returnTo)}`}
          >
            Sign in with {options.provider.name}
          </a>
        ) : null}
        {options.localSignIn ? (
          <>
            <p className="muted">
              {options.provider
                ? 'Or with a console account (for those the administrator set up here):'
                : 'Use the console account your administrator gave you.'}
            </p>
            <form className="sign-in-form stack" onSubmit={onSubmit}>
              <SignInField
                label="Username"
                name="username"
                autoComplete="username"
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                required
                maxLength={64}
                // Signing in is the one thing to do on this page.
                autoFocus
              />
              <SignInField
                label="Password"
                type="password"
                name="password"
                autoComplete="current-password"
                required
                maxLength={1024}
              />
              <div className="sign-in-error" role="alert" aria-live="assertive">
                {failure ? (
                  <p>
                    {failure.message}
                    {failure.retryAt ? (
                      <ThrottleCountdown key={failure.retryAt} retryAt={failure.retryAt} />
                    ) : null}
                  </p>
                ) : null}
              </div>
              <SubmitButton busy={signIn.isPending} busyLabel="Signing in…">
                Sign in
              </SubmitButton>
            </form>
            <p className="sign-in-help muted">
              Forgotten your password or locked out? Ask whoever runs the console: they can set a
              new password or unlock your sign-in.
            </p>
          </>
        ) : null}
      </div>
    </main>
  );
}

/** A labelled text field of the sign-in form: the label's text above the input. */
function SignInField({
  label,
  ...input
}: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="sign-in-field">
      <span>{label}</span>
      <input className="input" {...input} />
    </label>
  );
}
