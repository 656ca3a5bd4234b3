// The demo receiver as an operator runs it: an alert the console signs is printed as verified, a
// tampered one is answered 401, and an unsigned Slack-format alert is printed as unsigned.
import { afterEach, describe, expect, it } from 'vitest';
import { formatAlert, type AlertPayload } from './alert-payload';
import { startAlertReceiverServer } from './alert-receiver';
import { newSigningSecret } from './signature';
import { newStandardWebhooksSecret } from './standard-webhooks';

const NOW = Date.UTC(2025, 0, 6, 9, 0, 0);
const payload: AlertPayload = {
  id: '0194b6c2-8000-7000-8000-000000000001',
  type: 'test',
  occurredAt: new Date(NOW).toISOString(),
  summary: 'Test alert for "On-call"',
  data: {},
  link: null,
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(secret: string | undefined) {
  const lines: string[] = [];
  const receiver = await startAlertReceiverServer({
    port: 0,
    secret,
    print: (line) => lines.push(line),
    now: () => NOW,
  });
  close = receiver.close;
  const post = (body: string, headers: Record<string, string>) =>
    fetch(receiver.url, { method: 'POST', headers, body });
  return { lines, post };
}

describe('npm run alert-receiver', () => {
  it('prints a verified alert and refuses a tampered body with 401', async () => {
    const secret = newSigningSecret();
    const { lines, post } = await start(secret);
    const signed = formatAlert(
      payload,
      { kind: 'webhook', secret, signing: 'console-signature' },
      NOW,
    );
    expect((await post(signed.body, signed.headers)).status).toBe(200);
    expect(lines.at(-1)).toContain(`verified test (key ${payload.id}): Test alert for "On-call"`);

    const tampered = signed.body.replace('On-call', 'Off-call');
    expect((await post(tampered, signed.headers)).status).toBe(401);
    expect(lines.at(-1)).toContain('refused: signature mismatch');

    const otherSecret = formatAlert(
      payload,
      { kind: 'webhook', secret: newSigningSecret(), signing: 'console-signature' },
      NOW,
    );
    expect((await post(otherSecret.body, otherSecret.headers)).status).toBe(401);
  });

  it('verifies a Standard Webhooks alert and refuses a tampered one with 401', async () => {
    const secret = newStandardWebhooksSecret();
    const { lines, post } = await start(secret);
    const signed = formatAlert(
      payload,
      { kind: 'webhook', secret, signing: 'standard-webhooks' },
      NOW,
    );
    expect((await post(signed.body, signed.headers)).status).toBe(200);
    expect(lines.at(-1)).toContain(`verified test (key ${payload.id})`);
    const tampered = signed.body.replace('On-call', 'Off-call');
    expect((await post(tampered, signed.headers)).status).toBe(401);
    expect(lines.at(-1)).toContain('refused: signature mismatch');
  });

  it('prints Slack-format alerts as unsigned', async () => {
    const { lines, post } = await start(newSigningSecret());
    const slack = formatAlert(payload, { kind: 'slack', secret: null, signing: null }, NOW);
    expect((await post(slack.body, slack.headers)).status).toBe(200);
    expect(lines.at(-1)).toContain('unsigned alert');
    expect(lines.at(-1)).toContain('Test alert: Test alert for "On-call"');
  });
});
