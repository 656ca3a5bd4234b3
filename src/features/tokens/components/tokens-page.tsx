// Page `/tokens`, every role: tokens for scripts. Make one (name, role up to one's own, expiry),
// see it once with a copy button, list them with when each was last used, revoke one after an
// in-page confirmation. An admin's list holds everyone's tokens, and an admin can revoke any.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/form-field';
import { ListRegion } from '../../../components/ui/list-region';
import { OneTimeSecret } from '../../../components/ui/one-time-secret';
import { PageHeader } from '../../../components/ui/page-header';
import { Instant } from '../../../components/ui/instant';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session-query';
import {
  API_TOKEN_MAX_DAYS,
  tokenRolesFor,
  type ApiToken,
  type CreatedApiToken,
} from '../../../shared/api-tokens';
import type { Role } from '../../../shared/session';
import { tokensQueryOptions, useCreateToken, useRevokeToken } from '../api/tokens-api';
import '../../../components/ui/managed-list.css';
import './tokens-page.css';

const EXPIRY_CHOICES = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: API_TOKEN_MAX_DAYS, label: 'A year' },
] as const;

/** Revoke, asked in the row itself: a second, explicit button rather than a browser dialog. */
function RevokeControl({
  token,
  busy,
  onRevoke,
}: {
  token: ApiToken;
  busy: boolean;
  onRevoke: () => void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button button-link" onClick={() => setAsking(true)}>
        Revoke
      </button>
    );
  }
  return (
    <div className="token-confirm" role="group" aria-label={`Revoke ${token.name}?`}>
      <span>Scripts using it are refused at once.</span>
      <button type="button" className="button" disabled={busy} onClick={onRevoke}>
        Revoke “{token.name}”
      </button>
      <button type="button" className="button button-link" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </div>
  );
}

export function TokensPage() {
  const { data: session } = useSession();
  const list = useQuery(tokensQueryOptions());
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const roles = session ? tokenRolesFor(session.role) : [];
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [days, setDays] = useState<number>(90);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const chosenRole = role || session?.role;
  const error = create.error ?? revoke.error;
  const now = Date.now();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosenRole) return;
    create.mutate(
      { name, role: chosenRole, expiresInDays: days },
      {
        onSuccess: (answer) => {
          setCreated(answer);
          setName('');
        },
      },
    );
  };

  return (
    <section className="page managed-page" aria-labelledby="tokens-title">
      <PageHeader titleId="tokens-title" title="Tokens">
        Tokens let scripts call the console’s API as you, without a password, cookie or X-CSRF
        header. A token has its own role, never above yours, and expires within a year.
      </PageHeader>

      {created ? (
        <OneTimeSecret
          title={`Token “${created.name}”`}
          value={created.token}
          copyLabel="Copy token"
          testId="created-token"
          onDone={() => setCreated(null)}
        >
          <strong>Copy it now: it is shown this once</strong>, and the console keeps only its hash.
          Anyone who has it acts as you, with the {created.role} role, until{' '}
          {formatDateTime(created.expiresAt)}. Keep it in a secret store, never in code or a chat.
          Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
        </OneTimeSecret>
      ) : null}

      <form className="card managed-form" onSubmit={submit}>
        <h2>Make a token</h2>
        <FormField id="token-name" label="Name">
          <input
            id="token-name"
            className="input"
            name="name"
            required
            maxLength={64}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Nightly audit export"
          />
        </FormField>
        <FormField id="token-role" label="Role">
          <select
            id="token-role"
            className="input"
            value={chosenRole ?? ''}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            {roles.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="token-expiry" label="Expires after">
          <select
            id="token-expiry"
            className="input"
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.days} value={choice.days}>
                {choice.label}
              </option>
            ))}
          </select>
        </FormField>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Make the token
        </button>
        {error ? (
          <p className="form-error" role="alert">
            {error.message}
          </p>
        ) : null}
      </form>

      <section className="card tokens-list" aria-labelledby="tokens-list-title">
        <h2 id="tokens-list-title">
          {session?.role === 'admin' ? 'Everyone’s tokens' : 'Your tokens'}
        </h2>
        <ListRegion
          query={list}
          loading="Loading the tokens…"
          errorTitle="The tokens could not be loaded"
          empty={
            list.data?.items.length === 0
              ? {
                  title: 'No tokens yet',
                  text: 'Make one above for a script that calls the console’s API.',
                  muted: true,
                }
              : undefined
          }
        >
          <table className="managed-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Owner</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(list.data?.items ?? []).map((item) => (
                <tr key={item.id}>
                  <th scope="row">{item.name}</th>
                  <td data-label="Owner">{item.owner}</td>
                  <td data-label="Role">{item.role}</td>
                  <td data-label="Expires">
                    {Date.parse(item.expiresAt) <= now ? 'expired ' : null}
                    <Instant at={item.expiresAt} />
                  </td>
                  <td data-label="Last used">
                    {item.lastUsedAt ? <Instant at={item.lastUsedAt} /> : 'never'}
                  </td>
                  <td className="managed-actions">
                    <RevokeControl
                      token={item}
                      busy={revoke.isPending}
                      onRevoke={() => revoke.mutate(item.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ListRegion>
      </section>
    </section>
  );
}
