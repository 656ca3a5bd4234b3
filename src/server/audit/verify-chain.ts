// Walks the audit trail's hash chain from its start (or retention's signed checkpoint) to its
// head and reports the first broken link: an entry whose hash does not match its content, a gap,
// a record changed, removed or added behind the chain's back. Reads in pages, so a trail of
// millions of records is walked in constant memory.
import {
  chainEntryHash,
  GENESIS_HASH,
  readSignedCheckpoint,
  type ChainCheckpoint,
} from './audit-chain';
import {
  intentPayload,
  outcomePayload,
  type AuditStore,
  type AuditVerification,
  type ChainRow,
} from '../store/audit-store';

const PAGE = 500;

/** Why one entry does not hold, or undefined when it does. */
function recordFault(row: ChainRow, checkpoint: ChainCheckpoint | undefined): string | undefined {
  if (row.kind === 'retention') return undefined;
  let payload: { id?: string; at?: string; recordAt?: string };
  try {
    payload = JSON.parse(row.payload) as typeof payload;
  } catch {
    return 'its content is not readable';
  }
  const record = row.record;
  if (!record) {
    // Retention deletes records made before its cutoff; their later entries stay in the chain.
    const madeAt = payload.at ?? payload.recordAt;
    if (checkpoint && madeAt !== undefined && madeAt < checkpoint.cutoff) return undefined;
    return `record ${row.recordId} it covers was deleted`;
  }
  if (row.kind === 'intent') {
    const now = intentPayload({
      id: record.id,
      at: record.at,
      username: record.username,
      operation: record.operation,
      identifierHash: record.identifierHash,
      keyId: record.keyId,
      continued: record.continued,
      requestId: record.requestId,
      params: record.params,
    });
    return now === row.payload ? undefined : `record ${record.id} was changed after it was written`;
  }
  const now = outcomePayload({
    id: record.id,
    at: record.at,
    outcome: record.outcome,
    status: record.status,
    detail: record.detail,
    recordCount: record.recordCount,
    subjects: row.subjects,
  });
  if (!record.completed || record.subjectCount !== row.subjects.length || now !== row.payload) {
    return `record ${record.id} was changed after its outcome was written`;
  }
  return undefined;
}

/** Walks the chain of `store` with `chainKey`; `at` is the time the walk is reported at. */
export async function verifyAuditChain(
  store: AuditStore,
  chainKey: Buffer,
  options: { now: () => number; source: string },
): Promise<AuditVerification> {
  const state = await store.chainState();
  const result = (ok: boolean, entries: number, brokenAt: number | null, detail: string) => ({
    at: new Date(options.now()).toISOString(),
    ok,
    entries,
    brokenAt,
    detail,
    source: options.source,
  });
  let checkpoint: ChainCheckpoint | undefined;
  if (state.checkpoint !== null) {
    checkpoint = readSignedCheckpoint(chainKey, state.checkpoint);
    if (!checkpoint) {
      return result(
        false,
        0,
        0,
        'the retention checkpoint’s signature does not hold (changed, or made with another AUDIT_KEY)',
      );
    }
  }
  let expectedSeq = (checkpoint?.seq ?? 0) + 1;
  let prevHash = checkpoint?.hash ?? GENESIS_HASH;
  let entries = 0;
  for (;;) {
    const rows = await store.readChain(expectedSeq - 1, PAGE);
    for (const row of rows) {
      if (row.seq !== expectedSeq) {
        return result(false, entries, expectedSeq, `entry ${expectedSeq} is missing`);
      }
      if (row.prevHash !== prevHash) {
        return result(
          false,
          entries,
          row.seq,
          `entry ${row.seq} does not follow entry ${row.seq - 1}`,
        );
      }
      if (chainEntryHash(chainKey, row.seq, row.prevHash, row.payload) !== row.hash) {
        return result(
          false,
          entries,
          row.seq,
          `entry ${row.seq}: its hash does not match its content (changed, or made with another AUDIT_KEY)`,
        );
      }
      const fault = recordFault(row, checkpoint);
      if (fault) return result(false, entries, row.seq, `entry ${row.seq}: ${fault}`);
      entries += 1;
      prevHash = row.hash;
      expectedSeq += 1;
    }
    if (rows.length < PAGE) break;
  }
  if (expectedSeq - 1 !== state.seq || prevHash !== state.hash) {
    return result(
      false,
      entries,
      expectedSeq,
      `the chain ends at entry ${expectedSeq - 1} but its head says ${state.seq}: entries were removed`,
    );
  }
  const coverage = await store.coverage();
  if (coverage.unchained > 0) {
    return result(
      false,
      entries,
      null,
      `${coverage.unchained} record(s) are not in the chain: added behind its back`,
    );
  }
  if (coverage.completedWithoutOutcome > 0) {
    return result(
      false,
      entries,
      null,
      `${coverage.completedWithoutOutcome} record(s) show an outcome the chain never recorded`,
    );
  }
  if (coverage.legacy > state.legacyRecords) {
    return result(
      false,
      entries,
      null,
      `${coverage.legacy - state.legacyRecords} record(s) claim to predate the chain but were added later`,
    );
  }
  const legacy =
    coverage.legacy > 0 ? `; ${coverage.legacy} older record(s) predate the chain` : '';
  const from = checkpoint ? ` from the retention checkpoint after entry ${checkpoint.seq}` : '';
  return result(true, entries, null, `${entries} entries intact${from}${legacy}`);
}
