// Tokens for scripts in the audit trail: making and revoking one each leave one entry saying who
// (a person, or a token and its owner), from where, and the token's state before and after, with
// the token itself only as a fingerprint; one whose entry cannot be written is not made.
import { vi, describe, expect, it } from 'vitest';
import { CreatedApiTokenSchema } from '../../shared/api-tokens';
import { PROBLEM_TYPES } from '../../shared/problem';
import { fingerprint } from '../http/admin-change';
import type { BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();
const FROM = { 'X-Forwarded-For': '198.51.100.23' };

async function makeToken(h: BffHarness, name = 'nightly export') {
  return h.request('/api/tokens', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...FROM },
    body: JSON.stringify({ name, role: 'auditor', expiresInDays: 30 }),
  });
}

const tokenChanges = async (h: BffHarness) =>
  (await h.audit.search.listChanges({ kind: 'token', limit: 10 })).items;

describe('tokens for scripts in the audit trail', () => {
  it('records a token made and one revoked with a token, once each, without the token', async () => {
    const h = await start({ env: { TRUST_PROXY: 'true' } });
    const made = CreatedApiTokenSchema.parse(await (await makeToken(h)).json());
    const other = CreatedApiTokenSchema.parse(await (await makeToken(h, 'cleanup')).json());
    // The second token, acting for its owner, revokes the first (auditor tokens may revoke
    // their owner's own tokens: they are the owner's).
    const revoked = await h.app.request(`/api/tokens/${made.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${other.token}`, ...FROM },
    });
    expect(revoked.status).toBe(200);

    const entries = await tokenChanges(h);
    expect(entries.map((entry) => entry.action)).toEqual([
      'token.revoked',
      'token.created',
      'token.created',
    ]);
    const [revokedEntry, , createdEntry] = entries;
    const state = {
      name: 'nightly export',
      owner: 'admin',
      role: 'auditor',
      expiresAt: made.expiresAt,
    };
    expect(createdEntry).toMatchObject({
      username: 'admin',
      tokenId: null,
      address: '198.51.100.23',
      target: made.id,
      before: null,
    });
    expect(JSON.parse(createdEntry!.after!)).toEqual({ ...state, token: fingerprint(made.token) });
    expect(revokedEntry).toMatchObject({
      username: 'admin',
      tokenId: other.id,
      tokenName: 'cleanup',
      address: '198.51.100.23',
      target: made.id,
      after: null,
    });
    expect(JSON.parse(revokedEntry!.before!)).toEqual(state);
    const text = JSON.stringify(entries);
    for (const token of [made.token, other.token]) expect(text).not.toContain(token);
  });

  it('refuses a token whose entry cannot be written with a 503, and no token exists', async () => {
    const h = await start();
    // Signed in first: a sign-in's own entry is never what refuses it.
    expect((await h.request('/api/tokens')).status).toBe(200);
    vi.spyOn(h.audit.records, 'recordChange').mockRejectedValueOnce(
      new Error('SQLITE_FULL: database or disk is full'),
    );
    const refused = await makeToken(h);
    expect(refused.status).toBe(503);
    const problem = (await refused.json()) as { type: string; detail: string };
    expect(problem.type).toBe(PROBLEM_TYPES.auditUnavailable);
    expect(problem.detail).toMatch(/nothing was changed/);
    expect((await (await h.request('/api/tokens')).json()) as unknown).toEqual({ items: [] });
    expect(await tokenChanges(h)).toEqual([]);
  });

  it('keeps a token working when its revocation cannot be recorded', async () => {
    const h = await start();
    const made = CreatedApiTokenSchema.parse(await (await makeToken(h)).json());
    vi.spyOn(h.audit.records, 'recordChange').mockRejectedValueOnce(new Error('disk full'));
    const refused = await h.request(`/api/tokens/${made.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(503);
    const used = await h.app.request('/api/audit-trail/integrity', {
      headers: { Authorization: `Bearer ${made.token}` },
    });
    expect(used.status).toBe(200);
  });
});
