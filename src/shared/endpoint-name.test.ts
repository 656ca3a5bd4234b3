// Endpoints are named as the rest of the console names their operations.
import { describe, expect, it } from 'vitest';
import { endpointName } from './endpoint-name';

describe('endpointName', () => {
  it('names a data-subject endpoint as its catalog entry does, for a template or a real path', () => {
    expect(endpointName('GET /rest/api/consent/v4/datasubjects/details')).toBe(
      'v4 · Details with purposes',
    );
    expect(endpointName('GET /rest/api/consent/v4/datasubjects/profiles/{purposeGuid}')).toBe(
      'v4 · One purpose of a data subject',
    );
    expect(
      endpointName(
        'GET /rest/api/consent/v4/datasubjects/profiles/1d7c2c5e-0a4b-4f7e-9d1a-2b3c4d5e6f70',
      ),
    ).toBe('v4 · One purpose of a data subject');
    expect(endpointName('GET /api/consentmanager/v2/datasubjects?page=2')).toBe('v2 data subjects');
  });

  it('names the operations outside the catalog from the table of platform operations', () => {
    expect(endpointName('POST /api/access/v1/oauth/token')).toBe('Token request');
    expect(endpointName('GET /api/audit/v4/audits/event-types')).toBe('Event types');
    expect(endpointName('POST /request/v1/consentreceipts')).toBe('Consent receipts');
  });

  it('gives no name to an endpoint the console does not know', () => {
    expect(endpointName('GET /somewhere/else')).toBeNull();
    expect(endpointName('not an endpoint')).toBeNull();
  });
});
