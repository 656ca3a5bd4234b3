// The Sessions page (every role): where one is signed in, and ending a session or all of one's
// own ("Sign out everywhere"). An admin sees everyone's, grouped by person, and can end any.
import type { ReactNode } from 'react';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { Instant } from '../../../components/ui/instant';
import type { ConsoleSession } from '../../../shared/console-sessions';
import { counted } from '../../../shared/counted';
import { useEndSession, useSessions, useSignOutEverywhere } from '../api/sessions-api';
import { ConfirmInline } from '../../../components/ui/confirm-inline';
import './sessions-page.css';

const METHOD_LABELS: Record<ConsoleSession['method'], string> = {
  password: 'Password',
  provider: 'Single sign-on',
};

/** Sessions by person, people in name order; each person's newest first (as the BFF sends). */
function byPerson(sessions: readonly ConsoleSession[]): Array<[string, ConsoleSession[]]> {
  const groups = new Map<string, ConsoleSession[]>();
  for (const session of sessions) {
    groups.set(session.username, [...(groups.get(session.username) ?? []), session]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

/** A person's group heading: name and username, e-mail, and how many sessions. */
function Person({ sessions }: { sessions: readonly ConsoleSession[] }) {
  const [first] = sessions;
  if (!first) return null;
  return (
    <>
      {first.name ?? first.username}
      {first.name ? <span className="muted"> ({first.username})</span> : null}
      {first.email ? <span className="sessions-email muted">{first.email}</span> : null}
      <span className="muted"> · {counted(sessions.length, 'session')}</span>
    </>
  );
}

function SessionRow({
  session,
  end,
  signOutHere,
}: {
  session: ConsoleSession;
  end: ReturnType<typeof useEndSession>;
  signOutHere: () => Promise<void>;
}) {
  const browser = session.browser ?? 'Unknown browser';
  return (
    <tr data-current={session.current || undefined}>
      <th scope="row" data-label="Browser">
        {browser}
        {session.current ? (
          <span className="status-badge sessions-this" data-tone="good">
            This browser
          </span>
        ) : null}
      </th>
      <td data-label="Signed in with">{METHOD_LABELS[session.method]}</td>
      <td data-label="Started">
        <Instant at={session.startedAt} />
      </td>
      <td data-label="Last active">
        <Instant at={session.lastActiveAt} />
      </td>
      <td className="sessions-actions">
        <ConfirmInline
          label="End"
          labelFor={`End the session of ${session.username} on ${browser}`}
          question={session.current ? 'Sign this browser out?' : 'End this session?'}
          confirmLabel="End session"
          busy={end.isPending}
          onConfirm={() =>
            end.mutate(session.id, {
              // Ending this browser's own session signs it out like the header's button.
              onSuccess: () => (session.current ? void signOutHere() : undefined),
            })
          }
        />
      </td>
    </tr>
  );
}

/** The page; `signOutHere` signs this tab out as the header's button does (the app provides it). */
export function SessionsPage({
  signOutHere,
  children,
}: {
  signOutHere: () => Promise<void>;
  /** Sections another area adds at the page's end (an admin's sign-in unlock). */
  children?: ReactNode;
}) {
  const list = useSessions();
  const end = useEndSession();
  const everywhere = useSignOutEverywhere(signOutHere);
  const everyone = list.data?.everyone ?? false;
  const groups: Array<[string | null, ConsoleSession[]]> = list.data
    ? everyone
      ? byPerson(list.data.sessions)
      : [[null, list.data.sessions]]
    : [];
  const current = list.data?.sessions.find((session) => session.current);
  const ended = end.isSuccess && !end.isPending;
  const error = end.error ?? everywhere.error;

  return (
    <section className="page sessions-page" aria-labelledby="sessions-title">
      <PageHeader titleId="sessions-title" title="Sessions">
        {everyone
          ? 'Everyone signed in to the console, by person: where, how and since when. End a session after a lost laptop or when someone leaves.'
          : 'Where you are signed in to the console. End a session you do not recognise, or sign out everywhere.'}
      </PageHeader>

      <section className="card sessions-card" aria-labelledby="sessions-list-title">
        <div className="sessions-head">
          <h2 id="sessions-list-title">{everyone ? 'All sessions' : 'Your sessions'}</h2>
          {current ? (
            <ConfirmInline
              label="Sign out everywhere"
              question="End all your sessions, this one included?"
              confirmLabel="Sign out everywhere"
              busy={everywhere.isPending}
              className="button"
              onConfirm={() => everywhere.mutate()}
            />
          ) : null}
        </div>
        <p className="visually-hidden" role="status">
          {ended ? 'The session was ended.' : ''}
        </p>
        {error ? (
          <p className="form-error" role="alert">
            {error.message}
          </p>
        ) : null}
        {list.isError && !list.data ? (
          <LoadErrorPanel headingLevel={3} title="The sessions could not be loaded" query={list} />
        ) : !list.data ? (
          <p className="muted" role="status">
            Loading sessions…
          </p>
        ) : list.data.sessions.length === 0 ? (
          <p className="muted">No sessions are open.</p>
        ) : (
          <table className="sessions-table">
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Signed in with</th>
                <th scope="col">Started</th>
                <th scope="col">Last active</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            {groups.map(([person, sessions]) => (
              <tbody key={person ?? 'own'}>
                {person ? (
                  <tr className="sessions-person">
                    <th scope="rowgroup" colSpan={5}>
                      <Person sessions={sessions} />
                    </th>
                  </tr>
                ) : null}
                {sessions.map((session) => (
                  <SessionRow
                    key={session.id}
                    session={session}
                    end={end}
                    signOutHere={signOutHere}
                  />
                ))}
              </tbody>
            ))}
          </table>
        )}
      </section>
      {children}
    </section>
  );
}
