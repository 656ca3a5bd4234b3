// The administrative changes' export as an auditor meets it: the changes the page's filters show,
// as CSV or JSON with before and after, no secret, signed, and itself recorded as an export.
import { describe, expect, it } from 'vitest';
import { AuditExportSignatureSchema } from '../../../shared/audit-trail';
import { CreatedApiTokenSchema } from '../../../shared/api-tokens';
import type { BffHarness } from '../../test-support/bff-harness';
import { expectProblem } from '../../test-support/expect-problem';
import { harnessPerTest } from '../../test-support/harness-per-test';
import { checkExport } from './export-signing';
import { createHash } from 'node:crypto';

const start = harnessPerTest();
const T0 = Date.UTC(2026, 10, 3, 9, 0, 0);
const KEY = 'an-audit-key-for-the-changes-export-0123456789';

function exportChanges(h: BffHarness, body: unknown, as: 'auditor' | 'support' = 'auditor') {
  return h.request(
    '/api/audit-trail/changes/export',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    },
    { as },
  );
}

/** An admin changes a threshold a minute after T0. */
async function thresholdChanged(h: BffHarness, clock: { now: number }) {
  expect((await h.request('/api/tokens')).status).toBe(200);
  clock.now += 60_000;
  const set = await h.request('/api/alerts/thresholds/account-minute/MINUTE', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ percent: 55 }),
  });
  expect(set.status).toBe(204);
}

describe('POST /api/audit-trail/changes/export', () => {
  it('gives an auditor the filtered changes as CSV with before and after, signed', async () => {
    const clock = { now: T0 };
    const h = await start({ now: () => clock.now, env: { AUDIT_KEY: KEY } });
    await thresholdChanged(h, clock);

    const exported = await exportChanges(h, { format: 'csv', filters: { kind: 'threshold' } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-changes-2026-11-03-09-01-00\.csv"$/,
    );
    expect(exported.headers.get('x-export-records')).toBe('1');
    const bytes = Buffer.from(await exported.arrayBuffer());
    const [header, row, end] = bytes.toString('utf8').split('\r\n');
    expect(header).toBe(
      'id,at,user,token_id,token_name,address,action,target,before,after,connection',
    );
    expect(row).toMatch(
      /^[0-9a-f-]+,2026-11-03T09:01:00\.000Z,admin,,,[^,]+,threshold\.changed,account-minute:MINUTE,"\{""percent"":null\}","\{""percent"":55\}",default$/,
    );
    expect(end).toBe('');

    const id = exported.headers.get('x-export-id')!;
    const signature = AuditExportSignatureSchema.parse(
      await (
        await h.request(`/api/audit-trail/exports/${id}/signature`, {}, { as: 'auditor' })
      ).json(),
    );
    expect(signature).toMatchObject({
      records: 1,
      format: 'csv',
      scope: 'administrative changes, filters: kind threshold',
    });
    const file = { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
    expect(checkExport(signature, file).ok).toBe(true);

    // The export itself is an administrative change, by the auditor.
    const recorded = (await h.audit.search.listChanges({ kind: 'audit', limit: 5 })).items;
    expect(recorded).toEqual([
      expect.objectContaining({ username: 'auditor', action: 'audit.exported', target: id }),
    ]);
    expect(JSON.parse(recorded[0]!.after!)).toEqual({
      format: 'csv',
      scope: 'administrative changes, filters: kind threshold',
      records: 1,
    });
  });

  it('writes JSON as the list answers it, and a token only as its fingerprint', async () => {
    const h = await start({ env: { AUDIT_KEY: KEY } });
    const made = await h.request('/api/tokens', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly export', role: 'auditor', expiresInDays: 30 }),
    });
    const token = CreatedApiTokenSchema.parse(await made.json());

    const exported = await exportChanges(h, { format: 'json', filters: { kind: 'token' } });
    expect(exported.status).toBe(200);
    const text = await exported.text();
    expect(text).not.toContain(token.token);
    const file = JSON.parse(text) as { scope: string; count: number; records: unknown[] };
    expect(file.count).toBe(1);
    expect(file.records).toEqual([
      expect.objectContaining({
        user: 'admin',
        token: null,
        action: 'token.created',
        before: null,
        after: expect.objectContaining({
          name: 'nightly export',
          token: expect.stringMatching(/^sha256:/),
        }),
      }),
    ]);
  });

  it('refuses a bad filter with a 400, too many changes with a 413, and support users', async () => {
    const h = await start({ env: { AUDIT_KEY: KEY, AUDIT_EXPORT_MAX_RECORDS: '1' } });
    await expectProblem(await exportChanges(h, { format: 'csv', filters: { kind: 'pw' } }), 400, {
      parameter: 'kind',
    });
    await expectProblem(await exportChanges(h, { format: 'xml' }), 400, { parameter: 'format' });
    // The admin's and the auditor's sign-ins: two changes, one more than an export may hold.
    expect((await h.request('/api/tokens')).status).toBe(200);
    await expectProblem(await exportChanges(h, { format: 'csv' }), 413, {
      detail: expect.stringMatching(/^2 records match; an export holds at most 1/),
    });
    expect((await exportChanges(h, { format: 'csv' }, 'support')).status).toBe(403);
  });
});
