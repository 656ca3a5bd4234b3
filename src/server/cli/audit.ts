// `npm run audit -- verify | verify-export FILE SIGNATURE | public-key | retention`: the audit
// trail's operator commands. `verify` walks the hash chain of the store the console uses (SQLite
// under DATA_DIR, or PostgreSQL at DATABASE_URL) and reports the first broken link;
// `verify-export` checks an exported file against its detached signature; `public-key` prints
// the key auditors verify exports with; `retention` runs the daily retention job now.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { AuditExportSignatureSchema } from '../../shared/audit-trail';
import { counted } from '../../shared/counted';
import { AUDIT_KEY_FILE } from '../data-subjects/audit/audit-key';
import { deriveAuditKey } from '../data-subjects/audit/audit-chain';
import {
  checkExport,
  createExportSigner,
  keyFingerprint,
} from '../data-subjects/audit/export-signing';
import { CheckpointFileError } from '../data-subjects/audit/checkpoint-file';
import {
  readCheckpointFile,
  type CheckpointSource,
} from '../data-subjects/audit/checkpoint-reader';
import { checkpointSources } from '../data-subjects/audit/checkpoint-job';
import { runAuditMaintenance } from '../data-subjects/audit/retention-job';
import { verifyAuditChain } from '../data-subjects/audit/verify-chain';
import { createLogger } from '../observability/logger';
import { AuditEvidenceStore } from '../data-subjects/audit/audit-evidence-store';
import { AuditChainStore } from '../data-subjects/audit/audit-chain-store';
import { DATABASE_FILE, type SqlDatabase } from '../store/database';
import { databasePlaceOf, openConfiguredDatabase } from '../store/configured-database';
import { ConfigError, loadEnvironment } from '../config/config';
import { isProcessEntry } from './process-entry';

const USAGE = `The audit trail's operator commands (reads DATABASE_URL or DATA_DIR, and AUDIT_KEY or
DATA_DIR/audit-key, like the console; a .env file in the working directory is read too).

  npm run audit -- verify [--checkpoints PATH]...
      Walks the hash chain of every audit record and reports the first broken link, holding
      it against every signed checkpoint it finds: the database's, AUDIT_CHECKPOINT_DIR's file,
      and each PATH given (a checkpoint file, a saved log, a webhook receiver's records),
      read as a stream, and says how many checkpoints each PATH held. A chain that lost a
      checkpointed entry, or ends before one, is broken.
      Exit code 0: intact; 1: broken; 2: a PATH that is not a regular file, cannot be read,
      or holds no checkpoint (empty, not checkpoints, or a shape the console does not read).
  npm run audit -- verify-export FILE SIGNATURE [--public-key PEM_FILE]
      Checks an export (CSV or JSON) against its detached signature (.sig.json). Without
      --public-key the key is derived from AUDIT_KEY when available; otherwise compare the
      printed fingerprint with the one the console's operator publishes.
  npm run audit -- public-key
      Prints the Ed25519 public key exports are signed with, and its fingerprint.
  npm run audit -- retention
      Runs the retention (AUDIT_RETENTION_DAYS, default 730) and a chain walk now.`;

/** Where the CLI reads its settings and writes; replaced in tests. */
export interface AuditCliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly now?: () => number;
}

class UsageError extends Error {}

/** AUDIT_KEY, or demo mode's key file; undefined when neither exists. */
function auditKeyOf(env: AuditCliIo['env']): string | undefined {
  if (env.AUDIT_KEY) return env.AUDIT_KEY;
  const file = join(databasePlaceOf(env).dataDir, AUDIT_KEY_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

async function openStore(env: AuditCliIo['env']): Promise<SqlDatabase> {
  const place = databasePlaceOf(env);
  // Never a new, empty store: the command would report on nothing.
  if (!place.databaseUrl && !existsSync(join(place.dataDir, DATABASE_FILE))) {
    throw new UsageError(
      `no console store in DATA_DIR ${place.dataDir} (set DATA_DIR or DATABASE_URL)`,
    );
  }
  return openConfiguredDatabase(place);
}

function requireKey(env: AuditCliIo['env']): string {
  const key = auditKeyOf(env);
  if (!key) {
    throw new UsageError(
      'no audit key: set AUDIT_KEY (or DATA_DIR where demo mode keeps its audit-key file)',
    );
  }
  return key;
}

/** SHA-256 and size of a file, read as a stream. */
async function digestFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const digest = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    digest.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: digest.digest('hex'), bytes };
}

/** Runs one command; resolves to the process exit code. */
export async function runAuditCli(argv: string[], io: AuditCliIo): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const now = io.now ?? Date.now;
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'public-key': { type: 'string' },
        checkpoints: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const [command, ...rest] = positionals;
    if (values.help || !command) {
      out(USAGE);
      return values.help ? 0 : 2;
    }
    if (command === 'public-key') {
      const signer = createExportSigner(requireKey(io.env));
      out(signer.publicKeyPem.trim());
      out(`fingerprint: ${signer.fingerprint}`);
      return 0;
    }
    if (command === 'verify-export') {
      const [file, signatureFile] = rest;
      if (!file || !signatureFile) throw new UsageError('verify-export needs FILE and SIGNATURE');
      const parsed = AuditExportSignatureSchema.safeParse(
        JSON.parse(readFileSync(signatureFile, 'utf8')),
      );
      if (!parsed.success) throw new UsageError(`${signatureFile} is not an export signature`);
      const signature = parsed.data;
      const trustedPem = values['public-key']
        ? readFileSync(values['public-key'], 'utf8')
        : (() => {
            const key = auditKeyOf(io.env);
            return key ? createExportSigner(key).publicKeyPem : undefined;
          })();
      const check = checkExport(signature, await digestFile(file), trustedPem);
      if (!check.ok) {
        out(`NOT VERIFIED: ${file}`);
        for (const reason of check.reasons) out(`  - ${reason}`);
        return 1;
      }
      out(`verified: ${file}`);
      out(
        `  ${signature.records} records, ${signature.format.toUpperCase()}, ${signature.bytes} bytes, sha256 ${signature.sha256}`,
      );
      out(`  exported ${signature.createdAt}: ${signature.scope}`);
      out(
        `  signed with Ed25519 key ${keyFingerprint(signature.publicKey)}${trustedPem ? ' (the trusted key)' : ' — compare this fingerprint with the one the console’s operator publishes'}`,
      );
      return 0;
    }
    if (command === 'verify' || command === 'retention') {
      const key = requireKey(io.env);
      const chainKey = deriveAuditKey(key, 'chain');
      const db = await openStore(io.env);
      try {
        const chain = new AuditChainStore(db, chainKey);
        const evidence = new AuditEvidenceStore(db);
        const engine = io.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
        // Outside copies first: a path that cannot be read, or holds no checkpoint, is an error
        // naming it, before any walk. A file that held none would otherwise read as an intact
        // trail checked against nothing.
        const outside: CheckpointSource[] = [];
        for (const path of values.checkpoints ?? []) {
          const source = await readCheckpointFile(path);
          if (source.found.length === 0) {
            throw new CheckpointFileError(
              path,
              'it holds no checkpoint: it is empty, or no line is a signed checkpoint, a log line carrying one or an alert delivery of one',
            );
          }
          out(`${path}: ${counted(source.found.length, 'checkpoint')}`);
          outside.push(source);
        }
        const signer = createExportSigner(key);
        const sources = async () => [
          ...(await checkpointSources(evidence, io.env.AUDIT_CHECKPOINT_DIR || undefined)),
          ...outside,
        ];
        if (command === 'retention') {
          const days = Number(io.env.AUDIT_RETENTION_DAYS || 730);
          if (!Number.isInteger(days) || days < 1) {
            throw new UsageError('AUDIT_RETENTION_DAYS must be a whole number of days');
          }
          const { retention, verification } = await runAuditMaintenance({
            chain,
            evidence,
            chainKey,
            retentionDays: days,
            logger: createLogger('silent'),
            now,
            checkpoints: {
              publicKeyPem: signer.publicKeyPem,
              sources,
            },
          });
          out(
            `retention (${counted(days, 'day')}): ${counted(retention.deleted, 'record')} deleted; chain ${verification.ok ? 'intact' : 'BROKEN'}: ${verification.detail}`,
          );
          return verification.ok ? 0 : 1;
        }
        const verification = await verifyAuditChain(chain, chainKey, {
          now,
          source: 'npm run audit -- verify',
          checkpoints: {
            publicKeyPem: signer.publicKeyPem,
            sources: await sources(),
          },
        });
        await evidence.saveVerification(verification);
        out(
          verification.ok
            ? `audit chain intact (${engine}): ${verification.detail}`
            : `AUDIT CHAIN BROKEN (${engine})${verification.brokenAt === null ? '' : ` at entry ${verification.brokenAt}`}: ${verification.detail}`,
        );
        return verification.ok ? 0 : 1;
      } finally {
        await db.close();
      }
    }
    throw new UsageError(`unknown command ${command}`);
  } catch (error) {
    if (error instanceof CheckpointFileError) {
      io.stderr.write(`audit: cannot use the checkpoint file ${error.path}: ${error.why}\n`);
      return 2;
    }
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    io.stderr.write(`audit: ${(error as Error).message}\n`);
    return 1;
  }
}

if (isProcessEntry(import.meta.url)) {
  let env: Record<string, string | undefined>;
  try {
    // AUDIT_KEY_FILE and DATABASE_URL_FILE, as the console reads them.
    env = loadEnvironment((warning) => process.stderr.write(`audit: warning: ${warning}\n`));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`audit: ${error.message}\n`);
    process.exit(2);
  }
  const code = await runAuditCli(process.argv.slice(2), {
    env,
    stdout: process.stdout,
    stderr: process.stderr,
  });
  process.exit(code);
}
