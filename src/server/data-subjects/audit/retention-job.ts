// The audit trail's retention: once at start and then daily, deletes the records older than
// AUDIT_RETENTION_DAYS (the hash chain continues from a signed checkpoint and a retention entry
// says what was deleted), then walks the chain so the audit page can say when it was last
// verified. Replicas on one PostgreSQL may each run it: the chain head's lock serialises them and
// the second run finds nothing left to delete.
import type { Logger } from '../../observability/logger';
import type { AuditEvidenceStore } from './audit-evidence-store';
import type { AuditChainStore } from './audit-chain-store';
import { verifyAuditChain } from './verify-chain';
import type { CheckpointSource } from './checkpoint-reader';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionJobOptions {
  /** The chain retention cuts and the walk reads. */
  readonly chain: AuditChainStore;
  /** Keeps the walk's result. */
  readonly evidence: Pick<AuditEvidenceStore, 'saveVerification'>;
  readonly chainKey: Buffer;
  readonly retentionDays: number;
  readonly logger: Logger;
  readonly now: () => number;
  /** Signed head checkpoints the walk holds the chain against (checkpoint-job.ts). */
  readonly checkpoints?: {
    readonly publicKeyPem: string;
    readonly sources: () => Promise<CheckpointSource[]>;
  };
}

/** One run: retention, then a walk of the chain; both results are kept in the store. */
export async function runAuditMaintenance(options: RetentionJobOptions) {
  const now = options.now();
  const cutoff = now - options.retentionDays * DAY_MS;
  const retention = await options.chain.applyRetention(cutoff, now);
  const verification = await verifyAuditChain(options.chain, options.chainKey, {
    now: options.now,
    source: 'the daily retention job',
    ...(options.checkpoints
      ? {
          checkpoints: {
            publicKeyPem: options.checkpoints.publicKeyPem,
            sources: await options.checkpoints.sources(),
          },
        }
      : {}),
  });
  await options.evidence.saveVerification(verification);
  return { retention, verification };
}

/** Starts the daily job (first run shortly after start); returns a function that stops it. */
export function startRetentionJob(options: RetentionJobOptions): () => void {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= runAuditMaintenance(options)
      .then(({ retention, verification }) => {
        options.logger.info(
          {
            deleted: retention.deleted,
            checkpointSeq: retention.checkpointSeq,
            chainOk: verification.ok,
            entries: verification.entries,
          },
          'audit trail retention and chain verification ran',
        );
        if (!verification.ok) {
          options.logger.error({ detail: verification.detail }, 'the audit chain is broken');
        }
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, 'audit trail retention failed; retried tomorrow');
      })
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, 10_000);
  const daily = setInterval(run, DAY_MS);
  first.unref();
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}
