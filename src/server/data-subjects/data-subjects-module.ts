// The data-subjects area (docs/product.md §6): lookups of personal data through the v4 operations
// and their legacy equivalents, each audited (admins); the audit trail with its hash chain, signed
// checkpoints, exports and daily retention, and the accountability report (admins and auditors).
import { randomBytes } from 'node:crypto';
import type { RecordChange } from '../http/admin-change';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env';
import type { DataSubjectOperation } from '../../shared/data-subject-operations';
import type { AreaModule } from '../runtime/area-module';
import { ConfigError } from '../config/config';
import { DEFAULT_PURPOSE_CATEGORIES, type PurposeMode } from '../../shared/lookup-purpose';
import type { Logger } from '../observability/logger';
import type { SqlDatabase } from '../store/database';
import type { UpstreamClient } from '../upstream/upstream-client';
import { deriveAuditKey } from './audit/audit-chain';
import { AuditEvidenceStore } from './audit/audit-evidence-store';
import { auditStream, type AuditStreamOptions } from './audit/audit-stream';
import { openAuditTrailStores, type AuditTrailStores } from './audit/audit-trail-stores';
import { auditTrailRoutes } from './audit/audit-trail-routes';
import { accountabilityRoutes } from './audit/accountability-routes';
import { AccountabilityStore } from './audit/accountability-store';
import { adminChangesRoutes } from './audit/admin-changes-routes';
import type { AuditCheckpoint } from './audit/checkpoints';
import { checkCheckpointPlace, CheckpointFileError } from './audit/checkpoint-file';
import { createCheckpointer } from './audit/checkpoint-job';
import { createExportSigner } from './audit/export-signing';
import { createIdentifierHasher } from './audit/identifier-hash';
import { LookupAudit } from './audit/lookup-audit-writer';
import { startRetentionJob, type RetentionJobOptions } from './audit/retention-job';
import { DataSubjectLookups } from './data-subject-lookups';
import { dataSubjectsRoutes } from './data-subjects-routes';

/** The audit trail's settings (AUDIT_* variables). */
export interface AuditSettings {
  readonly auditCheckpointDir?: string | undefined;
  readonly auditCheckpointMinutes: number;
  readonly auditExportMaxRecords: number;
  readonly auditRetentionDays: number;
  /** Whether a lookup must state why (LOOKUP_PURPOSE); absent: required, as configured by default. */
  readonly purposeMode?: PurposeMode;
  /** The purpose categories offered (LOOKUP_PURPOSE_CATEGORIES); absent: the default list. */
  readonly purposeCategories?: readonly string[];
}

export interface DataSubjectsAreaDeps {
  readonly database: () => Promise<SqlDatabase>;
  /** Records exports made and verifications run in the audit trail (compose.ts). */
  readonly recordChange: RecordChange;
  /**
   * Each platform connection people are looked up in, with its upstream client: each gets its
   * own lookup routes under its prefix, and every record of its lookups names it.
   */
  readonly connections: readonly { readonly name: string; readonly upstream: UpstreamClient }[];
  /** The catalog, overrides applied (operations-file.ts). */
  readonly operations: readonly DataSubjectOperation[];
  /** AUDIT_KEY; without one, a random key for this process (tests). */
  readonly auditKey?: string | undefined;
  readonly settings: AuditSettings;
  readonly logger: Logger;
  readonly now: () => number;
  /** Runs before each lookup: the auth area's step-up (PERSONAL_DATA_MAX_AUTH_AGE_MINUTES). */
  readonly beforeLookup?: MiddlewareHandler<AppEnv> | undefined;
  /** Where each new checkpoint is announced (the alerts area's `audit.checkpoint` event). */
  readonly publishCheckpoint: (checkpoint: AuditCheckpoint) => Promise<unknown>;
  /** Where each new entry is announced (the alerts area's `audit.entry` event); logged anyway. */
  readonly publishEntry?: AuditStreamOptions['publish'];
  /** The client's address as the console sees it, for the entries' log lines and alerts. */
  readonly clientAddress?: (c: Context<AppEnv>) => string;
  /** Runs the daily retention and chain walk (the process does; tests drive it themselves). */
  readonly dailyMaintenance?: boolean;
}

export interface DataSubjectsArea extends AreaModule {
  /** The trail's chain, records and search (the administrative changes are recorded there). */
  readonly audit: AuditTrailStores;
  /** What is kept beside the trail (tests read it). */
  readonly auditEvidence: AuditEvidenceStore;
  readonly lookupAudit: LookupAudit;
  /** What the daily job and `npm run audit` work with (retention-job.ts). */
  readonly maintenance: RetentionJobOptions;
  /**
   * For /metrics: the entries newer than the last signed checkpoint and when it was taken, and
   * whether the last walk of the chain (daily, or `npm run audit -- verify`) found it broken.
   */
  auditChainHealth(): Promise<{ entriesAfter: number; lastAt: number; chainBroken: boolean }>;
}

/**
 * Checks AUDIT_CHECKPOINT_DIR before anything is written there (checkpoint-file.ts): a place the
 * console cannot trust stops the start with one line naming the path and why; group or other
 * access the console could take away is taken away, and said.
 */
function prepareCheckpointDir(dir: string, logger: Logger): void {
  try {
    for (const loose of checkCheckpointPlace(dir)) {
      logger.warn(
        { path: loose.path, mode: loose.mode, tightened: true },
        'a file of the audit trail or its keys was readable by other users; made owner-only',
      );
    }
  } catch (error) {
    if (error instanceof CheckpointFileError) {
      throw new ConfigError(`AUDIT_CHECKPOINT_DIR ${error.path}: ${error.why}`);
    }
    throw new ConfigError(`AUDIT_CHECKPOINT_DIR ${dir}: ${(error as Error).message}`);
  }
}

export function createDataSubjectsArea(deps: DataSubjectsAreaDeps): DataSubjectsArea {
  const { settings, logger, now } = deps;
  const auditSecret = deps.auditKey ?? randomBytes(32).toString('base64url');
  const hasher = createIdentifierHasher(auditSecret);
  // The trail's hash chain and export signatures use keys derived from the same audit key.
  const chainKey = deriveAuditKey(auditSecret, 'chain');
  const audit = openAuditTrailStores(deps.database, {
    chainKey,
    onEntry: auditStream({ logger, publish: deps.publishEntry ?? (() => Promise.resolve()) }),
  });
  // Beside the trail: walks of the chain, checkpoints, export signatures, the write probe.
  const auditEvidence = new AuditEvidenceStore(deps.database);
  const lookupAudit = new LookupAudit(audit.records, auditEvidence, hasher, now);
  // Signed checkpoints of the chain's head, kept where a database attacker cannot reach them too
  // (docs/audit-trail.md, "Checkpoints").
  const signer = createExportSigner(auditSecret);
  if (settings.auditCheckpointDir !== undefined) {
    prepareCheckpointDir(settings.auditCheckpointDir, logger);
  }
  const checkpointer = createCheckpointer({
    chain: audit.chain,
    evidence: auditEvidence,
    signer,
    dir: settings.auditCheckpointDir,
    intervalMs: settings.auditCheckpointMinutes * 60_000,
    logger,
    now,
    publish: deps.publishCheckpoint,
  });
  const checkpoints = { publicKeyPem: signer.publicKeyPem, sources: () => checkpointer.sources() };
  const maintenance: RetentionJobOptions = {
    chain: audit.chain,
    evidence: auditEvidence,
    chainKey,
    checkpoints,
    retentionDays: settings.auditRetentionDays,
    logger,
    now,
  };
  const stops: Array<() => void> = [];
  // What every signed export (lookups, changes, the accountability report) is made with.
  const signedExports = {
    evidence: auditEvidence,
    recordChange: deps.recordChange,
    signer,
    checkpointer,
    exportMaxRecords: settings.auditExportMaxRecords,
    now,
  };

  return {
    audit,
    auditEvidence,
    lookupAudit,
    maintenance,
    auditChainHealth: async () => ({
      ...(await checkpointer.lag()),
      chainBroken: (await auditEvidence.lastVerification())?.ok === false,
    }),
    routes: [
      // One group per connection: its platform's lookups, recorded as that connection's.
      ...deps.connections.map(({ name, upstream }) => ({
        path: '/api/data-subjects',
        connection: name,
        app: dataSubjectsRoutes({
          connection: name,
          lookups: new DataSubjectLookups({ operations: deps.operations, upstream, now }),
          purpose: {
            mode: settings.purposeMode ?? 'required',
            categories: settings.purposeCategories ?? DEFAULT_PURPOSE_CATEGORIES,
          },
          audit: lookupAudit,
          logger,
          ...(deps.clientAddress ? { clientAddress: deps.clientAddress } : {}),
          ...(deps.beforeLookup ? { beforeLookup: deps.beforeLookup } : {}),
        }),
      })),
      {
        path: '/api/audit-trail/changes',
        app: adminChangesRoutes({ search: audit.search, ...signedExports }),
      },
      {
        path: '/api/audit-trail',
        app: auditTrailRoutes({
          search: audit.search,
          chain: audit.chain,
          evidence: auditEvidence,
          recordChange: deps.recordChange,
          hasher,
          operations: deps.operations.map((operation) => operation.id),
          chainKey,
          signer,
          checkpointer,
          checkpoints: {
            ...checkpoints,
            everyMinutes: settings.auditCheckpointMinutes,
            outsideDirectory: settings.auditCheckpointDir !== undefined,
            outsideFailure: () => checkpointer.dirFailure(),
          },
          exportMaxRecords: settings.auditExportMaxRecords,
          retentionDays: settings.auditRetentionDays,
          now,
        }),
      },
      {
        path: '/api/accountability',
        app: accountabilityRoutes({
          figures: new AccountabilityStore(deps.database),
          search: audit.search,
          ...signedExports,
        }),
      },
    ],
    start() {
      stops.push(checkpointer.start());
      if (deps.dailyMaintenance) stops.push(startRetentionJob(maintenance));
    },
    async stop() {
      for (const stop of stops.splice(0)) stop();
      // The head as the console leaves it, so a cut made while it is down is caught.
      await checkpointer.take('shutdown').catch((error: unknown) => {
        logger.warn({ err: error }, 'no audit checkpoint could be taken at shutdown');
      });
    },
    readiness: [
      // Audit writes work; lookups are refused otherwise (audit/lookup-audit-writer.ts).
      {
        name: 'auditWrites',
        required: true,
        health: 'audit',
        check: () => lookupAudit.health(),
      },
      // A checkpoint AUDIT_CHECKPOINT_DIR refused marks the replica degraded, not out of rotation:
      // the database and the log still hold it, and lookups are audited as before.
      ...(settings.auditCheckpointDir === undefined
        ? []
        : [
            {
              name: 'auditCheckpoints',
              required: false,
              check: () => {
                const failure = checkpointer.dirFailure();
                return Promise.resolve(failure ? { ok: false, ...failure } : { ok: true });
              },
            },
          ]),
    ],
  };
}
