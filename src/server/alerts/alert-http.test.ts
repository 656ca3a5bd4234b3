// The SSRF guard of outbound alerts, as an attacker with an admin's form would probe it: only
// https (or the demo's http://127.0.0.1), no private, loopback, link-local or metadata address —
// also when a harmless-looking name resolves to one at connect time — no redirect followed, no
// unbounded answer read, and a deadline.
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../test-support/alert-receiver';
import { postAlert, type AlertHttpOptions } from './alert-http';
import { checkDestinationUrl, isRestrictedAddress } from './destination-guard';

const LIVE: AlertHttpOptions = {
  allowPrivate: false,
  demo: false,
  timeoutMs: 2_000,
  maxResponseBytes: 1_024,
};
const DEMO: AlertHttpOptions = { ...LIVE, demo: true };

let receiver: AlertReceiver;
beforeAll(async () => {
  receiver = await startAlertReceiver();
});
afterAll(() => receiver.close());

/** A resolver that answers `address` for every name: DNS rebinding in one line. */
function resolvingTo(address: string): NonNullable<AlertHttpOptions['lookup']> {
  const lookup = (
    _host: string,
    _options: unknown,
    callback: (error: null, addresses: LookupAddress[]) => void,
  ) => callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  return lookup as unknown as NonNullable<AlertHttpOptions['lookup']>;
}

describe('destination URLs', () => {
  it.each([
    ['http://hooks.example.com/x', 'must start with https://'],
    ['ftp://hooks.example.com/x', 'must start with https://'],
    ['https://user:pw@hooks.example.com/x', 'user name or password'],
    ['https://127.0.0.1/x', 'private, loopback or link-local'],
    ['https://10.1.2.3/x', 'private, loopback or link-local'],
    ['https://192.168.0.10/x', 'private, loopback or link-local'],
    ['https://172.20.0.1/x', 'private, loopback or link-local'],
    ['https://169.254.169.254/latest/meta-data', 'private, loopback or link-local'],
    ['https://[::1]/x', 'private, loopback or link-local'],
    ['https://[fe80::1]/x', 'private, loopback or link-local'],
    ['https://[::ffff:10.0.0.1]/x', 'private, loopback or link-local'],
    ['https://localhost/x', 'this machine'],
    ['not a url', 'absolute URL'],
  ])('refuses %s', (url, reason) => {
    expect(() => checkDestinationUrl(url, LIVE)).toThrow(reason);
  });

  it('accepts a public https URL, and http://127.0.0.1 only in demo mode', () => {
    expect(checkDestinationUrl('https://hooks.slack.com/services/T/B/x', LIVE).hostname).toBe(
      'hooks.slack.com',
    );
    expect(() => checkDestinationUrl(receiver.url, LIVE)).toThrow('https://');
    expect(checkDestinationUrl(receiver.url, DEMO).port).toBe(String(receiver.port));
    // Demo mode opens 127.0.0.1 over http, nothing else private.
    expect(() => checkDestinationUrl('http://10.0.0.1/x', DEMO)).toThrow('https://');
    expect(() => checkDestinationUrl('http://localhost:9/x', DEMO)).toThrow('https://');
  });

  it('lets ALERT_ALLOW_PRIVATE open private addresses, still over https only', () => {
    const open = { ...LIVE, allowPrivate: true };
    expect(checkDestinationUrl('https://10.1.2.3/x', open).hostname).toBe('10.1.2.3');
    expect(() => checkDestinationUrl('http://10.1.2.3/x', open)).toThrow('https://');
  });

  it('classifies addresses', () => {
    for (const address of ['169.254.169.254', '100.64.0.1', 'fd00::1']) {
      expect(isRestrictedAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '2606:4700::1111']) {
      expect(isRestrictedAddress(address), address).toBe(false);
    }
  });
});

describe('postAlert', () => {
  it('refuses at connect time a public-looking name that resolves to an internal address', async () => {
    for (const address of ['127.0.0.1', '169.254.169.254', '10.0.0.5', '::1']) {
      const before = receiver.received.length;
      const result = await postAlert('https://alerts.example.com/hook', {}, '{}', {
        ...LIVE,
        lookup: resolvingTo(address),
      });
      expect(result).toMatchObject({ ok: false, status: null });
      expect(result.error).toMatch(/^Refused: the destination resolves to a private/);
      expect(receiver.received.length).toBe(before);
    }
  });

  it('delivers to the demo receiver and reports status and latency', async () => {
    const result = await postAlert(receiver.url, { 'X-Test': '1' }, '{"a":1}', DEMO);
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(receiver.received.at(-1)?.body).toBe('{"a":1}');
  });

  it('does not follow a redirect, not even to a public address', async () => {
    receiver.reply((_, response) =>
      response.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data' }).end(),
    );
    const before = receiver.received.length;
    const result = await postAlert(receiver.url, {}, '{}', DEMO);
    expect(result).toMatchObject({ ok: false, status: 302 });
    expect(result.error).toMatch(/Redirect \(302\) not followed/);
    expect(receiver.received.length).toBe(before + 1);
  });

  it('stops reading an oversize answer and fails the attempt', async () => {
    receiver.reply((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end('x'.repeat(64 * 1024));
    });
    const result = await postAlert(receiver.url, {}, '{}', DEMO);
    expect(result).toMatchObject({ ok: false, status: 200 });
    expect(result.error).toMatch(/larger than 1024 bytes/);
  });

  it('gives up when the receiver does not answer within the deadline', async () => {
    receiver.reply(() => {
      // Never answers.
    });
    const result = await postAlert(receiver.url, {}, '{}', { ...DEMO, timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/No answer within 100 ms/);
  });

  it('refuses a plain-http URL in live mode without connecting', async () => {
    const before = receiver.received.length;
    const result = await postAlert(receiver.url, {}, '{}', LIVE);
    expect(result.error).toMatch(/^Refused: the URL must start with https:\/\//);
    expect(receiver.received.length).toBe(before);
  });
});
