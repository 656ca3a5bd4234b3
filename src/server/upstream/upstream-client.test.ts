import { describe, expect, it } from 'vitest';
import { EVENT_TYPES_OPERATION } from '../../shared/event-types';
import { answerOfBytes, type TransportRequest } from './http-transport';
import type { TokenManager } from './token-manager';
import { buildUpstreamUrl, UnsafeUpstreamUrlError, UpstreamClient } from './upstream-client';

describe('buildUpstreamUrl', () => {
  const base = new URL('https://api.example.com/tenant-a');

  it('appends the operation path and query pairs below the base path', () => {
    const url = buildUpstreamUrl(base, EVENT_TYPES_OPERATION, {
      query: [
        ['modules', 'Consent & Preferences'],
        ['modules', 'Assessments'],
      ],
    });
    expect(url.href).toBe(
      'https://api.example.com/tenant-a/api/audit/v4/audits/event-types?modules=Consent+%26+Preferences&modules=Assessments',
    );
  });

  it('encodes path parameters so they cannot add segments or change host', () => {
    const op = { id: 'x', method: 'GET' as const, path: '/v4/datasubjects/profiles/{purposeGuid}' };
    const url = buildUpstreamUrl(base, op, { pathParams: { purposeGuid: '../../admin?x=1' } });
    expect(url.origin).toBe('https://api.example.com');
    expect(url.pathname).toBe('/tenant-a/v4/datasubjects/profiles/..%2F..%2Fadmin%3Fx%3D1');
  });

  it('refuses a path that would escape the base path', () => {
    const op = { id: 'x', method: 'GET' as const, path: '/../../other' };
    expect(() => buildUpstreamUrl(base, op, {})).toThrow(UnsafeUpstreamUrlError);
  });

  it('refuses a missing path parameter instead of sending a literal placeholder', () => {
    const op = { id: 'x', method: 'GET' as const, path: '/v4/datasubjects/profiles/{purposeGuid}' };
    expect(() => buildUpstreamUrl(base, op, {})).toThrow(UnsafeUpstreamUrlError);
  });
});

describe('UpstreamClient', () => {
  it('gives the transport what is left of the caller’s time, the renewed token’s call too', async () => {
    const sent: TransportRequest[] = [];
    const transport = async (request: TransportRequest) => {
      sent.push(request);
      // The first call's token is refused: the client renews it and sends again.
      return answerOfBytes(sent.length === 1 ? 401 : 200, {}, Buffer.from('[]'));
    };
    const tokens = {
      getToken: async () => 'token',
      invalidate: () => undefined,
    } as unknown as TokenManager;
    const client = new UpstreamClient({
      baseUrl: new URL('http://upstream.test'),
      transport,
      tokens,
    });
    await client.send(EVENT_TYPES_OPERATION, { timeoutMs: 1_234 });
    await client.send(EVENT_TYPES_OPERATION);
    expect(sent.map((request) => request.timeoutMs)).toEqual([1_234, 1_234, undefined]);
  });
});
