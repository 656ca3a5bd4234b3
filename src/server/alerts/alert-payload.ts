// What an alert says, and how it is formatted for each kind of destination. The payload carries
// no identifier, token or secret: no incident or event id of the platform, no user, no URL of the
// platform; a receiver that needs details follows the console link (PUBLIC_URL) and signs in.
import type { DeliveryEventType, DestinationKind } from '../../shared/alerts';
import { signatureHeader } from './signature';

/** The alert as stored in the outbox and sent (as is) to generic webhooks. */
export interface AlertPayload {
  /** The idempotency key: the same for every attempt and resend of this alert to a destination. */
  readonly id: string;
  readonly type: DeliveryEventType;
  /** When the event happened (ISO 8601). */
  readonly occurredAt: string;
  /** One sentence for people. */
  readonly summary: string;
  /** The event's numbers: rule, period, limits, times; never an identifier. */
  readonly data: Readonly<Record<string, string | number | boolean | null>>;
  /** Where to look: the console's page for it, when PUBLIC_URL is set. */
  readonly link: string | null;
}

/** The event as the monitor describes it, before it gets an id per destination. */
export type AlertEvent = Omit<AlertPayload, 'id'>;

const TITLES: Record<DeliveryEventType, string> = {
  'incident.new': 'New rate-limit incident',
  'block.started': 'Block started',
  'block.ended': 'Block ended',
  'limit.near': 'Near a rate limit',
  'limit.forecast': 'Rate limit forecast to run out',
  'reporter.silent': 'Reporter went silent',
  'governor.holding': 'Requests held back',
  'audit.checkpoint': 'Audit checkpoint',
  test: 'Test alert',
};

/** A request ready to send: the body, and the headers beside the content type. */
export interface FormattedAlert {
  readonly body: string;
  readonly headers: Record<string, string>;
}

/**
 * The request for `payload` to a destination of `kind`: the JSON itself, signed, for a generic
 * webhook; Slack's incoming-webhook shape (text plus blocks, also understood by Mattermost and
 * Rocket.Chat) for Slack-compatible ones, whose URL is their credential.
 */
export function formatAlert(
  payload: AlertPayload,
  kind: DestinationKind,
  secret: string | null,
  now: number,
): FormattedAlert {
  const base = {
    'Content-Type': 'application/json',
    'User-Agent': 'privacy-api-console-alerts/1',
    'Idempotency-Key': payload.id,
  };
  if (kind === 'webhook') {
    const body = JSON.stringify(payload);
    return {
      body,
      headers: {
        ...base,
        ...(secret ? { 'Console-Signature': signatureHeader(secret, body, now) } : {}),
      },
    };
  }
  const title = TITLES[payload.type];
  const facts = Object.entries(payload.data)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `*${name}*: ${String(value)}`)
    .join('\n');
  const body = JSON.stringify({
    text: `${title}: ${payload.summary}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title } },
      { type: 'section', text: { type: 'mrkdwn', text: payload.summary } },
      ...(facts ? [{ type: 'section', text: { type: 'mrkdwn', text: facts } }] : []),
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${payload.occurredAt} · key ${payload.id}${payload.link ? ` · <${payload.link}|Open the console>` : ''}`,
          },
        ],
      },
    ],
  });
  return { body, headers: base };
}
