// One destination: what it receives, the one-click test, and its delivery log (time, event,
// status, attempts, latency, the receiver's answer) with "Resend" for what did not arrive.
import { useQuery } from '@tanstack/react-query';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import {
  ALERT_EVENTS,
  DEFAULT_SIGNING_SCHEME,
  SIGNING_SCHEMES,
  type Delivery,
  type Destination,
} from '../../../shared/alerts';
import { limitName } from '../../../shared/rate-limits';
import {
  deliveriesQueryOptions,
  useDeleteDestination,
  useResend,
  useSendTest,
  useUpdateDestination,
} from '../api/alerts-api';
import { formatDateTime } from '../../../lib/format';
import { STATUS_LABELS } from '../format';

const time = (iso: string) => formatDateTime(iso);

/**
 * Newest event first. The server lists by queue time, but a block's end is queued when the block
 * starts and happens later: people read the log as a timeline of what happened.
 */
function byEventTime(items: readonly Delivery[]): Delivery[] {
  return [...items].sort(
    (a, b) =>
      Date.parse(b.occurredAt) - Date.parse(a.occurredAt) ||
      Date.parse(b.createdAt) - Date.parse(a.createdAt),
  );
}

function outcome(delivery: Delivery): string {
  if (delivery.status === 'delivered') {
    return delivery.responseStatus === null ? 'Delivered' : `Answered ${delivery.responseStatus}`;
  }
  const parts = [delivery.error ?? ''];
  if (delivery.nextAttemptAt) {
    // A first attempt may be due later on purpose: a block's end is announced when it ends.
    parts.push(
      `${delivery.attempts === 0 ? 'due' : 'next attempt'} ${time(delivery.nextAttemptAt)}`,
    );
  }
  return parts.filter(Boolean).join('; ');
}

function DeliveryLog({ destination, canEdit }: { destination: Destination; canEdit: boolean }) {
  const log = useQuery(deliveriesQueryOptions(destination.id));
  const resend = useResend();
  if (log.isPending) return <p className="muted">Loading the delivery log…</p>;
  if (log.isError) {
    return (
      <LoadErrorPanel headingLevel={3} title="The delivery log could not be loaded" query={log} />
    );
  }
  if (log.data.items.length === 0) {
    return <p className="muted">Nothing sent yet. Press “Send test” to try the destination.</p>;
  }
  return (
    <div className="alerts-table-wrap">
      <table className="alerts-table delivery-log">
        <caption className="visually-hidden">Delivery log of {destination.name}</caption>
        <thead>
          <tr>
            <th scope="col">Happened</th>
            <th scope="col">Event</th>
            <th scope="col">Limit</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Latency</th>
            <th scope="col">Outcome</th>
            {canEdit ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {byEventTime(log.data.items).map((delivery) => (
            <tr key={delivery.id}>
              <td data-label="Happened">{time(delivery.occurredAt)}</td>
              <td data-label="Event" title={delivery.summary}>
                {delivery.event === 'test' ? 'Test' : ALERT_EVENTS[delivery.event]}
              </td>
              <td data-label="Limit">
                {delivery.ruleId === null
                  ? '—'
                  : limitName(delivery.ruleId, delivery.period ?? undefined)}
              </td>
              <td data-label="Status">
                <DeliveryStatus status={delivery.status} />
              </td>
              <td data-label="Attempts">{delivery.attempts}</td>
              <td data-label="Latency">
                {delivery.latencyMs === null ? '—' : `${delivery.latencyMs} ms`}
              </td>
              <td data-label="Outcome">{outcome(delivery)}</td>
              {canEdit ? (
                <td>
                  {delivery.status === 'dead' || delivery.status === 'delivered' ? (
                    <button
                      type="button"
                      className="button"
                      disabled={resend.isPending}
                      onClick={() =>
                        resend.mutate({ deliveryId: delivery.id, destinationId: destination.id })
                      }
                    >
                      Resend
                    </button>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A delivery's state as a coloured badge. */
function DeliveryStatus({ status }: { status: Delivery['status'] }) {
  return (
    <span className="delivery-status" data-status={status}>
      {STATUS_LABELS[status]}
    </span>
  );
}

/** The destination's card. */
export function DestinationCard({
  destination,
  canEdit,
}: {
  destination: Destination;
  canEdit: boolean;
}) {
  const sendTest = useSendTest();
  const update = useUpdateDestination();
  const remove = useDeleteDestination();
  const headingId = `destination-${destination.id}`;
  return (
    <article className="card destination-card" aria-labelledby={headingId}>
      <header className="destination-head cluster">
        <div>
          <h3 id={headingId}>
            {destination.name}{' '}
            {destination.enabled ? null : <span className="muted">(paused)</span>}
          </h3>
          <p className="muted">
            {destination.kind === 'webhook'
              ? `Webhook signed with ${SIGNING_SCHEMES[destination.signing ?? DEFAULT_SIGNING_SCHEME]}`
              : 'Slack-compatible'}{' '}
            · <span className="mono">{destination.urlHint}</span>
          </p>
          <p className="destination-events">
            {destination.events.length === 0
              ? 'No events chosen: only tests are sent.'
              : destination.events
                  .map((event) =>
                    event === 'governor.holding'
                      ? `Requests held back over ${destination.holdBackSeconds} s`
                      : ALERT_EVENTS[event],
                  )
                  .join(' · ')}
          </p>
        </div>
        {canEdit ? (
          <div className="destination-actions cluster">
            <button
              type="button"
              className="button button-primary"
              disabled={sendTest.isPending}
              onClick={() => sendTest.mutate(destination.id)}
            >
              {sendTest.isPending ? 'Sending…' : 'Send test'}
            </button>
            <button
              type="button"
              className="button"
              disabled={update.isPending}
              onClick={() =>
                update.mutate({ id: destination.id, change: { enabled: !destination.enabled } })
              }
            >
              {destination.enabled ? 'Pause' : 'Resume'}
            </button>
            <ConfirmButton
              className="button"
              busy={remove.isPending}
              question={`Remove “${destination.name}” and its delivery log?`}
              onConfirm={() => remove.mutate(destination.id)}
            >
              Remove
            </ConfirmButton>
          </div>
        ) : null}
      </header>
      {sendTest.data ? (
        <p className="muted" role="status">
          Test {STATUS_LABELS[sendTest.data.status].toLowerCase()}
          {sendTest.data.error ? `: ${sendTest.data.error}` : ''}.
        </p>
      ) : null}
      {sendTest.error ? (
        <p className="field-error" role="alert">
          {sendTest.error.message}
        </p>
      ) : null}
      <h4>Delivery log</h4>
      <DeliveryLog destination={destination} canEdit={canEdit} />
    </article>
  );
}
