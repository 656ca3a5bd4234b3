// Takes the signed checkpoints of the audit chain's head (checkpoints.ts): every
// AUDIT_CHECKPOINT_MINUTES while the chain grows, after every export, and as the console stops.
// Each goes first to AUDIT_CHECKPOINT_DIR (flushed to disk, off the event loop, within a short
// deadline), then to the database, and only then is it reported: one structured log line (logs are
// usually shipped elsewhere) and, for alert destinations that subscribe to it, an
// `audit.checkpoint` event. A copy the directory refused is logged as an error and kept as the
// directory's failure until a later one is written there (readiness and the audit page show it).
// Replicas each take their own; duplicates of one head are harmless.
import { join } from 'node:path';
import type { Logger } from '../../observability/logger';
import type { AuditEvidenceStore } from './audit-evidence-store';
import type { AuditChainStore } from './audit-chain-store';
import { CHECKPOINT_FILE, CheckpointFileError, writeCheckpointLine } from './checkpoint-file';
import { checkpointSource, readCheckpointFile, type CheckpointSource } from './checkpoint-reader';
import { checkpointLine, signCheckpoint, type AuditCheckpoint } from './checkpoints';
import type { ExportSigner } from './export-signing';

export interface CheckpointerOptions {
  readonly chain: Pick<AuditChainStore, 'chainState'>;
  /** Where the database's checkpoints are kept. */
  readonly evidence: Pick<AuditEvidenceStore, 'checkpoints' | 'saveCheckpoint'>;
  readonly signer: ExportSigner;
  /** AUDIT_CHECKPOINT_DIR, when set. */
  readonly dir: string | undefined;
  readonly intervalMs: number;
  readonly logger: Logger;
  readonly now: () => number;
  /** Hands a checkpoint to alert destinations (their outbox); failures are logged. */
  readonly publish?: (checkpoint: AuditCheckpoint) => Promise<unknown>;
  /** How long a write to AUDIT_CHECKPOINT_DIR may take (default CHECKPOINT_WRITE_DEADLINE_MS). */
  readonly writeDeadlineMs?: number;
}

/** The last checkpoint AUDIT_CHECKPOINT_DIR could not take, until a later one is written there. */
export interface CheckpointDirFailure {
  readonly at: string;
  /** Which checkpoint, and why: the path and the reason, never a stack. */
  readonly error: string;
}

/** Takes checkpoints, one at a time. */
export interface Checkpointer {
  /**
   * Takes a checkpoint of the head now, unless `reason` is the interval and the head has not
   * moved since the last one. Resolves once it is kept everywhere it goes (undefined: skipped).
   */
  take(reason: AuditCheckpoint['reason']): Promise<AuditCheckpoint | undefined>;
  /** Starts the interval; returns a function that stops it. */
  start(): () => void;
  /** Where the checkpoints are kept, read for a walk of the chain. */
  sources(): Promise<CheckpointSource[]>;
  /** Whether the last checkpoint reached AUDIT_CHECKPOINT_DIR (undefined: it did, or no dir). */
  dirFailure(): CheckpointDirFailure | undefined;
  /**
   * The chain's entries newer than the last checkpoint this process took, and when it took it
   * (epoch ms; until the first, the entries since it started and its start), for /metrics.
   */
  lag(): Promise<{ entriesAfter: number; lastAt: number }>;
}

/**
 * Where checkpoints are kept, read for a walk of the chain: the database's, and the file in `dir`
 * (AUDIT_CHECKPOINT_DIR) once one has been written there.
 */
export async function checkpointSources(
  store: Pick<AuditEvidenceStore, 'checkpoints'>,
  dir: string | undefined,
): Promise<CheckpointSource[]> {
  const sources = [checkpointSource('the database', await store.checkpoints())];
  if (dir !== undefined) {
    try {
      sources.push(
        await readCheckpointFile(join(dir, CHECKPOINT_FILE), {
          name: `AUDIT_CHECKPOINT_DIR/${CHECKPOINT_FILE}`,
          followLinks: false,
        }),
      );
    } catch (error) {
      // None written there yet.
      if (!(error instanceof CheckpointFileError && error.why === 'it does not exist')) throw error;
    }
  }
  return sources;
}

export function createCheckpointer(options: CheckpointerOptions): Checkpointer {
  let last: { seq: number; hash: string } | undefined;
  // One at a time: a file's lines stay whole, and the "unchanged head" test sees the last one.
  let queue: Promise<unknown> = Promise.resolve();
  let dirFailure: CheckpointDirFailure | undefined;
  let lastTaken: { seq: number; at: number } | undefined;

  async function takeNow(reason: AuditCheckpoint['reason']) {
    const head = await options.chain.chainState();
    if (reason === 'interval' && last?.seq === head.seq && last.hash === head.hash) {
      return undefined;
    }
    const checkpoint = signCheckpoint(options.signer, head, options.now(), reason);
    const line = checkpointLine(checkpoint);
    if (options.dir !== undefined) {
      try {
        await writeCheckpointLine(options.dir, line, options.writeDeadlineMs);
        dirFailure = undefined;
      } catch (error) {
        // The database and the log still get it; the operator must see the outside copy fail.
        // In the directory's name, not its path: the audit page shows it.
        const why =
          error instanceof CheckpointFileError
            ? error.why
            : (error as Error).message.replaceAll(options.dir, 'AUDIT_CHECKPOINT_DIR');
        dirFailure = {
          at: checkpoint.at,
          error: `the checkpoint of entry ${checkpoint.seq} could not be written to AUDIT_CHECKPOINT_DIR/${CHECKPOINT_FILE}: ${why}`,
        };
        options.logger.error(
          { err: error, dir: options.dir, seq: checkpoint.seq },
          'audit checkpoint could not be appended to AUDIT_CHECKPOINT_DIR',
        );
      }
    }
    await options.evidence.saveCheckpoint({ seq: checkpoint.seq, at: checkpoint.at, line });
    last = head;
    lastTaken = { seq: checkpoint.seq, at: options.now() };
    options.logger.info({ checkpoint }, 'audit checkpoint');
    options.publish?.(checkpoint).catch((error: unknown) => {
      options.logger.warn({ err: error }, 'audit checkpoint could not be queued for alerts');
    });
    return checkpoint;
  }

  const startedAt = options.now();
  let seqAtStart: number | undefined;
  const checkpointer: Checkpointer = {
    async lag() {
      const head = await options.chain.chainState();
      seqAtStart ??= head.seq;
      const since = lastTaken ?? { seq: seqAtStart, at: startedAt };
      return { entriesAfter: Math.max(0, head.seq - since.seq), lastAt: since.at };
    },
    take(reason) {
      const next = queue.then(() => takeNow(reason));
      queue = next.catch((error: unknown) => {
        options.logger.error({ err: error, reason }, 'audit checkpoint failed');
      });
      return next;
    },
    start() {
      const run = () => {
        checkpointer.take('interval').catch((error: unknown) => {
          options.logger.error(
            { err: error },
            'audit checkpoint failed; tried again next interval',
          );
        });
      };
      const timer = setInterval(run, options.intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    sources: () => checkpointSources(options.evidence, options.dir),
    dirFailure: () => dirFailure,
  };
  return checkpointer;
}
