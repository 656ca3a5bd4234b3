// The accountability report's API as a data-protection officer meets it: exact figures for a
// period (the last 30 days unless asked otherwise), the chain's evidence in one sentence, support
// refused, a period that makes no sense refused naming its bound, and the report as a JSON or
// Markdown file that the documented openssl recipe verifies, and refuses once a byte changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountabilityReportSchema } from '../../../shared/accountability';
import { type Role } from '../../../shared/session';
import { runAuditCli } from '../../cli/audit';
import {
  SEEDED_FIGURES,
  SEEDED_PERIOD,
  seedAccountabilityTrail,
} from '../../test-support/accountability-trail';
import { MISSING_TOOLS, recipe, runRecipe } from '../../test-support/auditor-recipe';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import { expectProblem } from '../../test-support/expect-problem';
import { tempDirsPerTest } from '../../test-support/temp-dirs';
import { createExportSigner } from './export-signing';

const KEY = 'an-audit-key-for-the-accountability-routes-0123';
const tempDir = tempDirsPerTest('accountability-');

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A console whose clock reads the seeded period's end, with the seeded trail. */
async function setUp() {
  const h = await startBffHarness({ now: () => SEEDED_PERIOD.until, env: { AUDIT_KEY: KEY } });
  harness = h;
  await seedAccountabilityTrail(h.audit.records);
  return h;
}

const post = (h: BffHarness, path: string, body: unknown, as: Role = 'auditor') =>
  h.request(
    path,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    },
    { as },
  );

async function report(h: BffHarness, query = '') {
  const response = await h.request(`/api/accountability${query}`, {}, { as: 'auditor' });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return AccountabilityReportSchema.parse(await response.json());
}

describe('GET /api/accountability', () => {
  it('answers the last 30 days by default with exact figures, and the evidence in one line', async () => {
    const h = await setUp();
    const before = await report(h);
    expect(before.period).toEqual({
      since: new Date(SEEDED_PERIOD.since).toISOString(),
      until: new Date(SEEDED_PERIOD.until).toISOString(),
    });
    expect(before).toMatchObject(SEEDED_FIGURES);
    expect(before.changes.items.map((change) => [change.action, change.user])).toEqual([
      ['alert-destination.secret-rotated', 'alice'],
      ['alert-destination.secret-rotated', 'bob'],
      ['alert-destination.created', 'alice'],
    ]);
    expect(before.evidence.summary).toMatch(/^The chain has not been verified yet/);
    // No identifier, nor its keyed hash, leaves in the report.
    expect(JSON.stringify(before)).not.toMatch(/aaaaaaaa|bbbbbbbb/);

    expect((await post(h, '/api/audit-trail/verify', {})).status).toBe(200);
    const after = await report(h);
    expect(after.evidence).toMatchObject({ coversPeriod: true, verification: { ok: true } });
    expect(after.evidence.summary).toMatch(/^Verified intact on .* after the period ended;/);
  });

  it('reports the period asked for', async () => {
    const h = await setUp();
    const firstDay = await report(
      h,
      `?since=${new Date(SEEDED_PERIOD.since).toISOString()}&until=2026-11-02T00:00:00.000Z`,
    );
    expect(firstDay.lookups).toEqual({ total: 1, people: 1, withoutPerson: 0 });
    expect(firstDay.purposes).toEqual([
      { category: 'access request', lookups: 1, references: 1, people: 1 },
    ]);
    expect(firstDay.changes.total).toBe(0);
  });

  it('refuses support, and a period that ends before it starts, is too long or is no date', async () => {
    const h = await setUp();
    expect((await h.request('/api/accountability', {}, { as: 'support' })).status).toBe(403);
    expect((await post(h, '/api/accountability/export', { format: 'md' }, 'support')).status).toBe(
      403,
    );
    const ask = (query: string) => h.request(`/api/accountability${query}`, {}, { as: 'auditor' });
    await expectProblem(await ask('?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z'), 400, {
      parameter: 'since',
      detail: 'since: must be before until',
    });
    await expectProblem(await ask('?since=2024-01-01T00:00:00Z&until=2026-11-01T00:00:00Z'), 400, {
      parameter: 'since',
    });
    await expectProblem(await ask('?until=yesterday'), 400, { parameter: 'until' });
  });
});

describe('POST /api/accountability/export', () => {
  it(`makes JSON and Markdown files the openssl recipe verifies${MISSING_TOOLS.length ? ` (missing: ${MISSING_TOOLS.join(', ')})` : ''}`, async () => {
    expect(MISSING_TOOLS, 'the standard tools the recipe needs').toEqual([]);
    const h = await setUp();
    const work = tempDir();
    const PUB = join(work, 'pub.pem');
    writeFileSync(PUB, createExportSigner(KEY).publicKeyPem);
    const verifyExport = recipe('verify-export');

    for (const format of ['json', 'md'] as const) {
      const exported = await post(h, '/api/accountability/export', { format });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition')).toBe(
        `attachment; filename="accountability-2026-11-01-to-2026-12-01.${format}"`,
      );
      const bytes = Buffer.from(await exported.arrayBuffer());
      const id = exported.headers.get('x-export-id')!;
      const signature = await h.request(
        `/api/audit-trail/exports/${id}/signature`,
        {},
        { as: 'auditor' },
      );
      expect(signature.status).toBe(200);
      const EXPORT = join(work, `accountability.${format}`);
      const SIG = `${EXPORT}.sig.json`;
      writeFileSync(EXPORT, bytes);
      writeFileSync(SIG, await signature.text());
      expect(JSON.parse(readFileSync(SIG, 'utf8'))).toMatchObject({ format, records: 3 });

      const good = runRecipe(verifyExport, work, { EXPORT, SIG, PUB });
      expect(good.code, good.output).toBe(0);
      expect(good.output).toContain('Signature Verified Successfully');
      // The console's own verifier takes it too, Markdown included.
      const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
      expect(
        await runAuditCli(['verify-export', EXPORT, SIG, '--public-key', PUB], {
          env: { AUDIT_KEY: KEY },
          stdout: sink,
          stderr: sink,
        }),
      ).toBe(0);
      const text = bytes.toString('utf8');
      expect(text).not.toMatch(/aaaaaaaa|bbbbbbbb/);
      // A figure changed in the file: the recipe fails.
      writeFileSync(EXPORT, text.replace('7', '8'));
      expect(runRecipe(verifyExport, work, { EXPORT, SIG, PUB }).code).not.toBe(0);

      if (format === 'json') {
        const file = JSON.parse(text);
        expect(file).toMatchObject(SEEDED_FIGURES);
        // Every change, with what it changed; secrets only as fingerprints.
        expect(file.changes.items).toHaveLength(3);
        expect(file.changes.items[0]).toMatchObject({
          action: 'alert-destination.secret-rotated',
          address: '203.0.113.7',
          before: null,
          after: { name: 'SIEM', secret: 'sha256:0123456789abcdef' },
        });
      } else {
        expect(text).toContain('- 7 lookups of 2 distinct people.');
        expect(text).toContain('| bob | nightly | 2 | 2 |');
        expect(text).toContain('| access request | 4 | 2 | 2 |');
        expect(text).toContain('| no purpose recorded | 2 | — | 1 |');
        expect(text).toContain('## Administrative changes (3)');
      }
    }
    // Each export is itself recorded as an administrative change.
    const changes = await h.audit.search.listChanges({ since: SEEDED_PERIOD.until, limit: 10 });
    expect(changes.items.filter((change) => change.action === 'audit.exported')).toHaveLength(2);
  }, 60_000);
});
