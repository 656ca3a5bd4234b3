// One connection's Integrations page (`/c/{connection}/integrations`, admins in it): register the
// account's other clients so they can report what they send the platform; the reporting key is
// shown once, and can be rotated or revoked, and a revoked integration removed from the list.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { FormField } from '../../../components/ui/form-field';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { OneTimeSecret } from '../../../components/ui/one-time-secret';
import { PageHeader } from '../../../components/ui/page-header';
import { usePageConnection, usePageConnectionName } from '../../../lib/connections-query';
import { formatDateTime } from '../../../lib/format';
import { INGEST_PATH } from '../../../shared/integrations';
import type { IssuedKey } from '../../../shared/integrations';
import {
  integrationsQueryOptions,
  useRegisterIntegration,
  useRemoveIntegration,
  useRevokeIntegration,
  useRotateKey,
} from '../api/integrations-api';
import '../../../components/ui/managed-list.css';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

/** The page; `children`: sections another area adds at its end, laid out as its own. */
export function IntegrationsPage({ children }: { children?: ReactNode }) {
  const connection = usePageConnectionName();
  // The gate lets a page show for one of the person's connections only: its label is known.
  const label = usePageConnection()?.label ?? connection;
  const list = useQuery(integrationsQueryOptions(connection));
  const register = useRegisterIntegration(connection);
  const rotate = useRotateKey(connection);
  const revoke = useRevokeIntegration(connection);
  const remove = useRemoveIntegration(connection);
  const [name, setName] = useState('');
  const [owner, setOwner] = useState('');
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const error = register.error ?? rotate.error ?? revoke.error ?? remove.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate(
      { name, ...(owner.trim() ? { owner } : {}) },
      {
        onSuccess: (answer) => {
          setIssued(answer);
          setName('');
          setOwner('');
        },
      },
    );
  };

  return (
    <section className="page managed-page" aria-labelledby="integrations-title">
      <PageHeader titleId="integrations-title" title="Integrations">
        {label}’s other clients of the platform. Each reports its requests and 429s with its own
        key, so {label}’s rate-limits page shows the whole account.
      </PageHeader>

      {issued ? (
        <OneTimeSecret
          title={`Reporting key of ${issued.integration.name}`}
          value={issued.key}
          copyLabel="Copy key"
          testId="issued-key"
          onDone={() => setIssued(null)}
        >
          Copy it now: it is shown this once and the console keeps only its hash. The key belongs to{' '}
          {label}: what the integration reports counts against {label}’s limits, for good. Give it
          to the integration as <code>Authorization: Bearer &lt;key&gt;</code>; it reports to{' '}
          <code>{INGEST_PATH}</code> on this console, the one address for every connection (see the
          reporter README).
        </OneTimeSecret>
      ) : null}

      <form className="card managed-form" onSubmit={submit}>
        <h2>Register an integration of {label}</h2>
        <FormField id="integration-name" label="Name">
          <input
            id="integration-name"
            className="input"
            name="name"
            required
            maxLength={80}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Nightly consent sync"
          />
        </FormField>
        <FormField
          id="integration-owner"
          label={
            <>
              Owner contact <span className="muted">(optional)</span>
            </>
          }
        >
          <input
            id="integration-owner"
            className="input"
            name="owner"
            maxLength={120}
            value={owner}
            onChange={(event) => setOwner(event.target.value)}
            placeholder="data-platform team"
          />
        </FormField>
        <button type="submit" className="button button-primary" disabled={register.isPending}>
          Register and show key
        </button>
        {error ? (
          <p className="form-error" role="alert">
            {error.message}
          </p>
        ) : null}
      </form>

      <section className="card integrations-list" aria-labelledby="registered-title">
        <h2 id="registered-title">Registered in {label}</h2>
        {list.isError && !list.data ? (
          <LoadErrorPanel headingLevel={3} title="The list could not be loaded" query={list} />
        ) : !list.data ? (
          <p className="muted">Loading…</p>
        ) : list.data.items.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <table className="managed-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Owner</th>
                <th scope="col">Key</th>
                <th scope="col">Last report</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((item) => (
                <tr key={item.id}>
                  <th scope="row">{item.name}</th>
                  <td data-label="Owner">{item.owner ?? '—'}</td>
                  <td data-label="Key">
                    {item.status === 'revoked'
                      ? 'revoked'
                      : `…${item.keyHint ?? ''} issued ${when(item.keyIssuedAt)}`}
                  </td>
                  <td data-label="Last report">{when(item.lastReportAt)}</td>
                  <td className="managed-actions">
                    <ConfirmButton
                      className="button"
                      busy={rotate.isPending}
                      question={`Issue a new key for ${item.name}? The current key stops working at once.`}
                      onConfirm={() => rotate.mutate(item.id, { onSuccess: setIssued })}
                    >
                      {item.status === 'revoked' ? 'Reinstate with new key' : 'Rotate key'}
                    </ConfirmButton>
                    {/* Keyed apart: one in place of the other must not inherit its open question,
                        or revoking would leave "Remove?" asked at once. */}
                    {item.status === 'active' ? (
                      <ConfirmButton
                        key="revoke"
                        className="button button-link"
                        busy={revoke.isPending}
                        question={`Revoke the key of ${item.name}? Its reports are refused from now on.`}
                        onConfirm={() => revoke.mutate(item.id)}
                      >
                        Revoke
                      </ConfirmButton>
                    ) : (
                      <ConfirmButton
                        key="remove"
                        className="button button-link"
                        busy={remove.isPending}
                        question={`Remove ${item.name} from the list? What it reported stays in the account-wide view and Planning, named as a removed integration.`}
                        onConfirm={() => remove.mutate(item.id)}
                      >
                        Remove
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {children}
    </section>
  );
}
