// The export streams: the store is read one page at a time, only as the client reads, so memory
// does not grow with the export's size; the signature covers exactly the bytes sent.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditExportSignature, AuditRecord } from '../../../shared/audit-trail';
import { EXPORT_PAGE_SIZE, streamAuditExport, type ExportPages } from './audit-export';
import { checkExport, createExportSigner } from './export-signing';

const signer = createExportSigner('an-audit-key-of-at-least-32-characters');

function record(i: number): AuditRecord {
  return {
    id: `id-${i}`,
    at: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
    connection: 'default',
    user: i % 2 ? 'admin' : '=HYPERLINK("x")',
    operation: 'v4-link-tokens',
    outcome: 'ok',
    status: 200,
    // A formula behind a space and a line break: spreadsheets skip both before they look.
    detail: i === 0 ? ' \n=2+3' : null,
    identifierHashed: false,
    continued: i > 0,
    completed: true,
    params: [{ name: 'fromDate', value: '2026-01-01T00:00:00Z' }],
    recordCount: 50,
    subjectCount: 50,
  };
}

/** `total` records in pages, counting how many pages were read. */
function source(total: number) {
  const reads: number[] = [];
  const pages: ExportPages = async (cursor, limit) => {
    const start = cursor === undefined ? 0 : Number(cursor);
    reads.push(start);
    const end = Math.min(total, start + limit);
    return {
      items: Array.from({ length: end - start }, (_, k) => record(start + k)),
      nextCursor: end < total ? String(end) : null,
    };
  };
  return { pages, reads };
}

function start(format: 'csv' | 'json', total: number) {
  const { pages, reads } = source(total);
  let signature: AuditExportSignature | undefined;
  const stream = streamAuditExport({
    id: 'export-1',
    format,
    scope: 'the whole trail',
    pages,
    signer,
    now: () => Date.UTC(2026, 5, 1),
    signed: async (value) => {
      signature = value;
    },
  });
  return { stream, reads, signature: () => signature };
}

describe('streamAuditExport', () => {
  it('reads the store only as the client reads: one page ahead at most', async () => {
    const total = 20 * EXPORT_PAGE_SIZE;
    const { stream, reads, signature } = start('csv', total);
    const reader = stream.getReader();
    await reader.read();
    // However large the export, what is held is one page.
    expect(reads.length).toBeLessThanOrEqual(2);
    let chunks = 1;
    let bytes = 0;
    const digest = createHash('sha256');
    const first = await reader.read();
    digest.update(first.value!);
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks += 1;
      bytes += next.value.byteLength;
      digest.update(next.value);
    }
    expect(reads).toHaveLength(20);
    expect(chunks).toBeGreaterThanOrEqual(19);
    expect(bytes).toBeGreaterThan(0);
    expect(signature()).toMatchObject({ records: total, format: 'csv', algorithm: 'Ed25519' });
  });

  it('signs exactly the bytes it sent, and a changed byte fails the check', async () => {
    const { stream, signature } = start('json', 1_234);
    const body = Buffer.from(await new Response(stream).arrayBuffer());
    const parsed = JSON.parse(body.toString('utf8')) as { records: AuditRecord[]; count: number };
    expect(parsed.records).toHaveLength(1_234);
    expect(parsed.count).toBe(1_234);
    const file = { sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length };
    expect(checkExport(signature()!, file)).toEqual({ ok: true, reasons: [] });
    expect(checkExport(signature()!, file, signer.publicKeyPem).ok).toBe(true);
    const other = createExportSigner('another-audit-key-of-at-least-32-chars');
    expect(checkExport(signature()!, file, other.publicKeyPem).reasons).toContain(
      'the signature was made with another key than the trusted one',
    );
    body[10] = body[10]! ^ 1;
    const changed = { sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length };
    expect(checkExport(signature()!, changed).ok).toBe(false);
  });

  it('writes CSV that spreadsheets cannot run as formulas', async () => {
    const { stream } = start('csv', 2);
    const text = await new Response(stream).text();
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,user,operation,outcome,status,detail,identifier_hashed,continued,completed,parameters,record_count,subject_count,matched_by,token,purpose_category,purpose_reference,operation_name,outcome_text,matched_by_text,connection',
    );
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toContain(`"' \n=2+3"`);
    expect(lines[1]).toContain('fromDate=2026-01-01T00:00:00Z');
  });

  it('says what the codes mean in the audit page’s words, beside the codes scripts read', async () => {
    const pages: ExportPages = async () => ({
      items: [
        { ...record(1), outcome: 'not-found', matchedBy: 'both' },
        {
          ...record(2),
          operation: 'v4-basic-details',
          outcome: 'rate-limited',
          connection: 'uat',
        },
      ],
      nextCursor: null,
    });
    const stream = streamAuditExport({
      id: 'export-2',
      format: 'csv',
      scope: 'a search',
      pages,
      signer,
      now: () => Date.UTC(2026, 5, 1),
      signed: async () => undefined,
    });
    const [header, ...rows] = (await new Response(stream).text()).trim().split('\r\n');
    const columns = header!.split(',');
    const cell = (row: string, name: string) => row.split(',')[columns.indexOf(name)];
    expect(cell(rows[0]!, 'outcome')).toBe('not-found');
    expect(cell(rows[0]!, 'outcome_text')).toBe('Not found');
    expect(cell(rows[0]!, 'matched_by')).toBe('both');
    expect(cell(rows[0]!, 'matched_by_text')).toBe('Asked for and shown');
    expect(cell(rows[1]!, 'outcome_text')).toBe('Rate limited');
    expect(cell(rows[1]!, 'operation_name')).toBe('v4 · Basic details');
    expect(cell(rows[1]!, 'matched_by_text')).toBe('');
    expect(cell(rows[1]!, 'connection')).toBe('uat');
  });
});
