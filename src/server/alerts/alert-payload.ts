// What an alert says, and how it is formatted for each kind of destination. The payload carries
// no identifier, token or secret: no incident or event id of the platform, no user, no URL of the
// platform; a receiver that needs details follows the console link (PUBLIC_URL) and signs in.
import type { DeliveryEventType, DestinationKind, SigningScheme } from '../../shared/alerts';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { standardWebhooksHeaders } from './standard-webhooks';

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
  /**
   * `audit.entry` only: the entry as its OCSF event (docs/audit-trail.md), as the log line has it.
   * Slack-compatible destinations get the summary and `data` alone.
   */
  readonly ocsf?: Readonly<Record<string, unknown>>;
  /**
   * The platform connection the alert is about (its name and its operator-given label); absent
   * for alerts about the console itself (audit entries and checkpoints, test alerts).
   */
  readonly connection?: AlertConnection;
}

/** A platform connection as an alert names it. */
export interface AlertConnection {
  readonly name: string;
  readonly label: string;
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
  'audit.entry': 'Audit entry',
  test: 'Test alert',
};

/** A request ready to send: the body, and the headers beside the content type. */
export interface FormattedAlert {
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** What formatting needs of a destination. */
export interface AlertTarget {
  readonly kind: DestinationKind;
  /** Signs generic webhooks; null for Slack-compatible destinations. */
  readonly secret: string | null;
  /** How a generic webhook is signed (null: Slack, or a destination from before the choice). */
  readonly signing: SigningScheme | null;
}

/**
 * Slack's mrkdwn escaping of text that is not the console's own markup (names an admin chose,
 * summaries, values): `&`, `<` and `>` become entities, so a destination named
 * `Ops & <!channel>` cannot notify a channel, mention anyone or make a link.
 */
export function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The signature headers of a generic webhook's `body`. */
function signatureHeaders(
  target: AlertTarget,
  id: string,
  body: string,
  now: number,
): Record<string, string> {
  if (!target.secret) return {};
  if (target.signing === 'standard-webhooks') {
    return standardWebhooksHeaders(target.secret, id, body, now);
  }
  return { [SIGNATURE_HEADER]: signatureHeader(target.secret, body, now) };
}

/**
 * The request for `payload` to `target`: the JSON itself, signed by the destination's scheme, for
 * a generic webhook; Slack's incoming-webhook shape (text plus blocks, also understood by
 * Mattermost and Rocket.Chat) for Slack-compatible ones, whose URL is their credential.
 */
export function formatAlert(
  payload: AlertPayload,
  target: AlertTarget,
  now: number,
): FormattedAlert {
  const base = {
    'Content-Type': 'application/json',
    'User-Agent': 'privacy-api-console-alerts/1',
    'Idempotency-Key': payload.id,
  };
  if (target.kind === 'webhook') {
    const body = JSON.stringify(payload);
    return { body, headers: { ...base, ...signatureHeaders(target, payload.id, body, now) } };
  }
  // Everything below that is not the console's own markup (`*…*`, `<url|…>`) is escaped.
  // A connection's label is the operator's text: escaped like every other such text, the header
  // too (Slack reads entities in plain text as the characters they stand for).
  const title = payload.connection
    ? `${TITLES[payload.type]} · ${slackEscape(payload.connection.label)}`
    : TITLES[payload.type];
  const summary = slackEscape(payload.summary);
  const facts = Object.entries(payload.data)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `*${slackEscape(name)}*: ${slackEscape(String(value))}`)
    .join('\n');
  const link = payload.link ? ` · <${slackEscape(payload.link)}|Open the console>` : '';
  const body = JSON.stringify({
    text: `${title}: ${summary}`,
    blocks: [
      // plain_text is never parsed for mentions or links.
      { type: 'header', text: { type: 'plain_text', text: title } },
      { type: 'section', text: { type: 'mrkdwn', text: summary } },
      ...(facts ? [{ type: 'section', text: { type: 'mrkdwn', text: facts } }] : []),
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${slackEscape(payload.occurredAt)} · key ${slackEscape(payload.id)}${link}`,
          },
        ],
      },
    ],
  });
  return { body, headers: base };
}
