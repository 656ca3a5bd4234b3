// Adding a destination (admins): a generic signed webhook (Console-Signature or Standard Webhooks
// signing) or a Slack-compatible incoming webhook, the events it gets, and for "requests held back"
// after how many seconds. The webhook's signing secret is shown once, right after creation.
import { useState, type FormEvent } from 'react';
import { FieldError, FormField } from '../../../components/ui/form-field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { ApiError } from '../../../lib/api-client';
import {
  ALERT_EVENTS,
  ALERT_EVENT_TYPES,
  ALERT_LIMITS,
  DEFAULT_SIGNING_SCHEME,
  SIGNING_SCHEMES,
  type AlertEventType,
  type CreatedDestination,
  type DestinationKind,
  type SigningScheme,
} from '../../../shared/alerts';
import { useCreateDestination } from '../api/alerts-api';

const DEFAULT_EVENTS: AlertEventType[] = [
  'incident.new',
  'block.started',
  'block.ended',
  'limit.near',
  'limit.forecast',
];

/** Shows the new webhook's secret with the command that receives its alerts locally. */
function SecretOnce({ created, onDone }: { created: CreatedDestination; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const secret = created.secret;
  const checks =
    created.destination.signing === 'standard-webhooks' ? (
      <>
        the <code>webhook-signature</code> header of every alert with it (any Standard Webhooks
        library does)
      </>
    ) : (
      <>
        the <code>Console-Signature</code> header of every alert with it
      </>
    );
  return (
    <div className="status-panel secret-panel" data-tone="warning" role="status">
      <h3>“{created.destination.name}” is set up</h3>
      {secret ? (
        <>
          <p>
            Its signing secret is shown <strong>only now</strong>. Give it to the receiver, which
            checks {checks}.
          </p>
          <p className="secret-value">
            <code>{secret}</code>
            <button
              type="button"
              className="button"
              onClick={() =>
                void navigator.clipboard?.writeText(secret).then(() => setCopied(true))
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </p>
          <p className="muted">
            To try it on this machine: <code>ALERT_RECEIVER_SECRET=… npm run alert-receiver</code>
          </p>
        </>
      ) : (
        <p>Slack-compatible alerts are not signed: the webhook URL itself is the credential.</p>
      )}
      <button type="button" className="button button-primary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** The formats a destination can take, as the radio buttons offer them. */
const KIND_CHOICES: readonly (readonly [DestinationKind, string])[] = [
  ['webhook', 'Generic webhook (JSON, signed with HMAC-SHA256)'],
  ['slack', 'Slack-compatible incoming webhook'],
];

/** The signing schemes of a generic webhook, as the radio buttons offer them. */
const SIGNING_CHOICES: readonly (readonly [SigningScheme, string])[] = [
  ['console-signature', `${SIGNING_SCHEMES['console-signature']}, verified by Stripe's libraries`],
  [
    'standard-webhooks',
    `${SIGNING_SCHEMES['standard-webhooks']} (webhook-id, webhook-timestamp, webhook-signature)`,
  ],
];

/** The "add a destination" form. */
export function DestinationForm() {
  const create = useCreateDestination();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<DestinationKind>('webhook');
  const [signing, setSigning] = useState<SigningScheme>(DEFAULT_SIGNING_SCHEME);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<AlertEventType[]>(DEFAULT_EVENTS);
  const [holdBack, setHoldBack] = useState(String(ALERT_LIMITS.holdBackSeconds.default));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<CreatedDestination | null>(null);

  if (created) {
    return (
      <SecretOnce
        created={created}
        onDone={() => {
          setCreated(null);
          create.reset();
        }}
      />
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = 'Give the destination a name.';
    if (!url.trim()) found.url = 'Paste the URL alerts are sent to.';
    const seconds = Number(holdBack);
    const { min, max } = ALERT_LIMITS.holdBackSeconds;
    if (!/^\d{1,4}$/.test(holdBack) || seconds < min || seconds > max) {
      found.holdBack = `A whole number of seconds from ${min} to ${max}.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      {
        name: name.trim(),
        kind,
        url: url.trim(),
        events,
        holdBackSeconds: seconds,
        ...(kind === 'webhook' ? { signing } : {}),
      },
      {
        onSuccess: (result) => {
          setCreated(result);
          setName('');
          setUrl('');
        },
        onError: (error) => {
          if (error instanceof ApiError && error.problem.parameter === 'url') {
            setErrors({ url: error.message.replace(/^url: /, 'This URL ') });
          }
        },
      },
    );
  };
  const toggle = (type: AlertEventType) =>
    setEvents((current) =>
      current.includes(type) ? current.filter((item) => item !== type) : [...current, type],
    );
  const apiError =
    create.error && !(create.error instanceof ApiError && create.error.problem.parameter === 'url')
      ? create.error.message
      : null;

  return (
    <form className="destination-form" onSubmit={submit} noValidate>
      <FormField className="form-row" id="destination-name" label="Name">
        <input
          id="destination-name"
          className="input"
          value={name}
          maxLength={ALERT_LIMITS.nameMaxLength}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'destination-name-error' : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <FieldError id="destination-name-error" message={errors.name} />
      </FormField>
      <fieldset className="form-row">
        <legend className="field-label">Format</legend>
        {KIND_CHOICES.map(([choice, text]) => (
          <label key={choice} className="choice">
            <input
              type="radio"
              name="destination-kind"
              checked={kind === choice}
              onChange={() => setKind(choice)}
            />
            {text}
          </label>
        ))}
      </fieldset>
      {kind === 'webhook' ? (
        <fieldset className="form-row">
          <legend className="field-label">Signing</legend>
          {SIGNING_CHOICES.map(([choice, text]) => (
            <label key={choice} className="choice">
              <input
                type="radio"
                name="destination-signing"
                checked={signing === choice}
                onChange={() => setSigning(choice)}
              />
              {text}
            </label>
          ))}
        </fieldset>
      ) : null}
      <FormField className="form-row" id="destination-url" label="URL">
        <input
          id="destination-url"
          className="input destination-url"
          type="url"
          value={url}
          placeholder={
            kind === 'slack'
              ? 'https://hooks.slack.com/services/…'
              : 'https://alerts.example.com/console'
          }
          maxLength={ALERT_LIMITS.urlMaxLength}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby="destination-url-hint"
          onChange={(event) => setUrl(event.target.value)}
        />
        <p id="destination-url-hint" className={errors.url ? 'field-error' : 'muted'}>
          {errors.url ??
            'https:// only (http://127.0.0.1 for a local receiver in demo mode). Not shown again after saving.'}
        </p>
      </FormField>
      <fieldset className="form-row">
        <legend className="field-label">Events</legend>
        <div className="event-choices">
          {ALERT_EVENT_TYPES.map((type) => (
            <label key={type} className="choice">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={() => toggle(type)}
              />
              {ALERT_EVENTS[type]}
            </label>
          ))}
        </div>
      </fieldset>
      {events.includes('governor.holding') ? (
        <FormField
          className="form-row"
          id="destination-hold-back"
          label="Alert when requests are held back for longer than (seconds)"
        >
          <input
            id="destination-hold-back"
            className="input hold-back-input"
            inputMode="numeric"
            value={holdBack}
            aria-invalid={errors.holdBack ? true : undefined}
            onChange={(event) => setHoldBack(event.target.value)}
          />
          {errors.holdBack ? <p className="field-error">{errors.holdBack}</p> : null}
        </FormField>
      ) : null}
      {apiError ? (
        <p className="field-error" role="alert">
          {apiError}
        </p>
      ) : null}
      <div>
        <SubmitButton busy={create.isPending} busyLabel="Adding…">
          Add destination
        </SubmitButton>
      </div>
    </form>
  );
}
