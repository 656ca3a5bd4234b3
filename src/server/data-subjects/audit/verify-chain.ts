// Walks the audit trail's hash chain from its start (or retention's signed checkpoint) to its
// head and reports the first broken link: an entry whose hash does not match its content, a gap,
// a record changed, removed or added behind the chain's back, an incomplete record showing more
// than its intent. Held against signed head checkpoints (checkpoints.ts), it also catches the
// newest entries cut off with the head rewound, or a wiped trail. Reads in pages, so a trail of
// millions of records is walked in constant memory (the checkpoints are held in memory: a few
// hundred a day).
import { utcText } from '../../../shared/utc-text';
import { counted } from '../../../shared/counted';
import {
  chainEntryHash,
  GENESIS_HASH,
  readSignedCheckpoint,
  type ChainCheckpoint,
} from './audit-chain';
import { checkpointSignatureFault } from './checkpoints';
import type { CheckpointSource } from './checkpoint-reader';
import type { AuditVerification } from './audit-evidence-store';
import type { AuditChainStore, ChainRow } from './audit-chain-store';
import {
  intentPayload,
  outcomePayload,
  personCount,
  type IntentPayloadVersion,
} from './lookup-audit-entry';
import { DEFAULT_CONNECTION } from '../../../shared/connections';
import { changePayload } from './admin-change-entry';

const PAGE = 500;

/**
 * Why a record whose outcome the chain has not (yet) recorded shows one: nothing but its intent
 * may be there, so an edited outcome, status, detail, count or a planted shown key is caught.
 */
function pendingFault(record: NonNullable<ChainRow['record']>, row: ChainRow): string | undefined {
  const pristine =
    record.outcome === 'error' &&
    record.status === 0 &&
    record.detail === null &&
    record.recordCount === null &&
    record.subjectCount === 0 &&
    row.subjects.length === 0;
  return pristine
    ? undefined
    : `record ${record.id} has no outcome in the chain, but shows one (changed after its intent was written)`;
}

/** The version of an intent's payload: `v` from version 2 on, none before. */
function intentVersion(payload: object): IntentPayloadVersion {
  const { v } = payload as { v?: unknown };
  return v === 3 ? 3 : v === 2 ? 2 : 1;
}

/** Why one entry does not hold, or undefined when it does. */
function recordFault(
  row: ChainRow,
  checkpoint: ChainCheckpoint | undefined,
  awaitingOutcome: Set<string>,
): string | undefined {
  if (row.kind === 'retention') return undefined;
  let payload: { id?: string; at?: string; recordAt?: string };
  try {
    payload = JSON.parse(row.payload) as typeof payload;
  } catch {
    return 'its content is not readable';
  }
  if (row.kind === 'change') {
    if (!row.change) {
      if (checkpoint && payload.at !== undefined && payload.at < checkpoint.cutoff)
        return undefined;
      return `administrative change ${row.recordId} it covers was deleted`;
    }
    // Version 1 changes were written before connections existed: they are `default`'s.
    const version = (payload as { v?: unknown }).v === 2 ? 2 : 1;
    if (version === 1 && row.change.connection !== DEFAULT_CONNECTION) {
      return `administrative change ${row.change.id} was moved to connection ${row.change.connection} after it was written`;
    }
    return changePayload(row.change, version) === row.payload
      ? undefined
      : `administrative change ${row.change.id} was changed after it was written`;
  }
  const record = row.record;
  if (!record) {
    // Retention deletes records made before its cutoff; their later entries stay in the chain.
    const madeAt = payload.at ?? payload.recordAt;
    if (checkpoint && madeAt !== undefined && madeAt < checkpoint.cutoff) return undefined;
    return `record ${row.recordId} it covers was deleted`;
  }
  if (row.kind === 'intent') {
    const version = intentVersion(payload);
    // Version 1 intents were written before purposes were kept: one showing a purpose now had it
    // added afterwards. Versions 1 and 2 were written before connections: they are `default`'s.
    if (version === 1 && (record.purposeCategory !== null || record.purposeReference !== null)) {
      return `record ${record.id} was changed after it was written`;
    }
    if (version < 3 && record.connection !== DEFAULT_CONNECTION) {
      return `record ${record.id} was moved to connection ${record.connection} after it was written`;
    }
    const now = intentPayload(
      {
        id: record.id,
        at: record.at,
        username: record.username,
        operation: record.operation,
        identifierHash: record.identifierHash,
        keyId: record.keyId,
        continued: record.continued,
        requestId: record.requestId,
        params: record.params,
        tokenName: record.tokenName,
        purposeCategory: record.purposeCategory,
        purposeReference: record.purposeReference,
        connection: record.connection,
      },
      version,
    );
    if (now !== row.payload) return `record ${record.id} was changed after it was written`;
    // Completed: its outcome entry must follow. Not: the record must still be a bare intent.
    if (record.completed) {
      awaitingOutcome.add(record.id);
      return undefined;
    }
    return pendingFault(record, row);
  }
  awaitingOutcome.delete(record.id);
  const version = (payload as { v?: unknown }).v === 2 ? 2 : 1;
  // Keys kept before their kinds were: none of them may have gained a kind or a link since.
  if (version === 1 && row.subjects.some((key) => key.kind !== null || key.person !== null)) {
    return `record ${record.id} was given links between shown keys after its outcome was written`;
  }
  const now = outcomePayload(
    {
      id: record.id,
      at: record.at,
      outcome: record.outcome,
      status: record.status,
      detail: record.detail,
      recordCount: record.recordCount,
      subjects: row.subjects,
    },
    version,
  );
  if (
    !record.completed ||
    record.subjectCount !== personCount(row.subjects) ||
    now !== row.payload
  ) {
    return `record ${record.id} was changed after its outcome was written`;
  }
  return undefined;
}

interface KnownCheckpoint {
  readonly seq: number;
  readonly hash: string;
  readonly at: string;
  readonly source: string;
}

/** The checkpoints of `sources` whose signatures hold, or why one is refused. */
function readCheckpoints(
  sources: readonly CheckpointSource[],
  publicKeyPem: string,
): { checkpoints: KnownCheckpoint[]; refused?: string } {
  const checkpoints: KnownCheckpoint[] = [];
  for (const source of sources) {
    for (const { line, checkpoint } of source.found) {
      const fault = checkpointSignatureFault(checkpoint, publicKeyPem);
      if (fault) {
        return {
          checkpoints,
          refused: `the checkpoint of entry ${checkpoint.seq} taken ${checkpoint.at} (${source.name}, line ${line}) is refused: ${fault}`,
        };
      }
      checkpoints.push({ ...checkpoint, source: source.name });
    }
  }
  return { checkpoints };
}

export interface VerifyOptions {
  readonly now: () => number;
  /** Who asked for the walk (kept with its result). */
  readonly source: string;
  /**
   * Signed head checkpoints to hold the chain against, with the public key they must be signed
   * with: the chain must still hold each checkpointed entry, unchanged.
   */
  readonly checkpoints?: {
    readonly publicKeyPem: string;
    readonly sources: readonly CheckpointSource[];
  };
}

/** Walks `chain` with `chainKey`; `at` is the time the walk is reported at. */
export async function verifyAuditChain(
  chain: Pick<AuditChainStore, 'chainState' | 'readChain' | 'coverage'>,
  chainKey: Buffer,
  options: VerifyOptions,
): Promise<AuditVerification> {
  const state = await chain.chainState();
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
  const signed = options.checkpoints
    ? readCheckpoints(options.checkpoints.sources, options.checkpoints.publicKeyPem)
    : { checkpoints: [] };
  if (signed.refused) return result(false, 0, null, signed.refused);
  // Entries retention has cut off can no longer be compared: their checkpoints are passed over.
  const held = signed.checkpoints.filter((known) => known.seq > (checkpoint?.seq ?? 0));
  const bySeq = new Map<number, KnownCheckpoint[]>();
  for (const known of held) bySeq.set(known.seq, [...(bySeq.get(known.seq) ?? []), known]);
  // The checkpoint of the highest entry, and of those the newest (the trail's page shows it too).
  const latest = held.reduce<KnownCheckpoint | undefined>(
    (best, known) =>
      best === undefined ||
      known.seq > best.seq ||
      (known.seq === best.seq && Date.parse(known.at) > Date.parse(best.at))
        ? known
        : best,
    undefined,
  );

  let expectedSeq = (checkpoint?.seq ?? 0) + 1;
  let prevHash = checkpoint?.hash ?? GENESIS_HASH;
  let entries = 0;
  const awaitingOutcome = new Set<string>();
  for (;;) {
    const rows = await chain.readChain(expectedSeq - 1, PAGE);
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
      const rewritten = bySeq.get(row.seq)?.find((known) => known.hash !== row.hash);
      if (rewritten) {
        return result(
          false,
          entries,
          row.seq,
          `entry ${row.seq} is not the one the checkpoint taken ${rewritten.at} (${rewritten.source}) signed: the chain was rewritten from there`,
        );
      }
      const fault = recordFault(row, checkpoint, awaitingOutcome);
      if (fault) return result(false, entries, row.seq, `entry ${row.seq}: ${fault}`);
      entries += 1;
      prevHash = row.hash;
      expectedSeq += 1;
    }
    if (rows.length < PAGE) break;
  }
  const lastSeq = expectedSeq - 1;
  if (lastSeq !== state.seq || prevHash !== state.hash) {
    return result(
      false,
      entries,
      expectedSeq,
      `the chain ends at entry ${lastSeq} but its head says ${state.seq}: entries were removed`,
    );
  }
  if (latest && latest.seq > lastSeq) {
    return result(
      false,
      entries,
      lastSeq + 1,
      `the chain ends at entry ${lastSeq}, but the checkpoint taken ${utcText(latest.at)} (${latest.source}) signed entry ${latest.seq}: ${latest.seq - lastSeq} entries are missing (the newest entries were cut off, or the trail was wiped)`,
    );
  }
  if (awaitingOutcome.size > 0) {
    const [first] = awaitingOutcome;
    return result(
      false,
      entries,
      null,
      `${counted(awaitingOutcome.size, 'record')} show an outcome the chain never recorded (first: ${first})`,
    );
  }
  const coverage = await chain.coverage();
  if (coverage.unchained > 0) {
    return result(
      false,
      entries,
      null,
      `${counted(coverage.unchained, 'record')} not in the chain: added behind its back`,
    );
  }
  if (coverage.completedWithoutOutcome > 0) {
    return result(
      false,
      entries,
      null,
      `${counted(coverage.completedWithoutOutcome, 'record')} show an outcome the chain never recorded`,
    );
  }
  if (coverage.legacy > state.legacyRecords) {
    return result(
      false,
      entries,
      null,
      `${counted(coverage.legacy - state.legacyRecords, 'record')} claim to predate the chain but were added later`,
    );
  }
  const legacy =
    coverage.legacy > 0 ? `; ${counted(coverage.legacy, 'older record')} predate the chain` : '';
  const from = checkpoint ? ` from the retention checkpoint after entry ${checkpoint.seq}` : '';
  const against = latest
    ? `; matches ${counted(held.length, 'signed checkpoint')}, the latest of entry ${latest.seq}, taken ${utcText(latest.at)}`
    : options.checkpoints
      ? '; no signed checkpoint to compare with yet'
      : '';
  return result(true, entries, null, `${entries} entries intact${from}${legacy}${against}`);
}
