import { describe, expect, it } from 'vitest';
import { EVENT_TYPES_OPERATION } from '../../shared/event-types';
import { buildUpstreamUrl, UnsafeUpstreamUrlError } from './upstream-client';

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
