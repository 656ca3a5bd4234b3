// Checkpoints outside the database: one JSON line each, appended to
// AUDIT_CHECKPOINT_DIR/audit-checkpoints.jsonl and flushed to the disk before the checkpoint is
// reported written, so `kill -9` loses none that was reported. The operator mounts storage there
// that the database's users cannot rewrite (write-once, another account, a synced bucket). The
// place is trusted only when the console's user owns it and no one else can write it; the file is
// opened without following links and must stay a regular file.
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  promises as fs,
  statSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import type { LoosePath } from '../../store/private-files';

/** The file inside AUDIT_CHECKPOINT_DIR. */
export const CHECKPOINT_FILE = 'audit-checkpoints.jsonl';

/**
 * Longest a checkpoint's write to the file may take before it is reported failed. The write runs
 * off the event loop; this bounds how long an export or shutdown waits for storage that hangs (a
 * stalled network mount). A checkpoint line is a few hundred bytes: a healthy disk takes
 * milliseconds.
 */
export const CHECKPOINT_WRITE_DEADLINE_MS = 2_000;

/** Flags for opening a checkpoint file: no links followed, no wait on a FIFO for its other end. */
export const SAFE_OPEN = {
  NOFOLLOW: constants.O_NOFOLLOW ?? 0,
  NONBLOCK: constants.O_NONBLOCK ?? 0,
};

// Never follow a link in the file's place, and never wait on a FIFO or device for a reader: the
// open fails or returns at once, and the file's type is checked before anything is written.
const { NOFOLLOW, NONBLOCK } = SAFE_OPEN;

/** The checkpoint place is not one the console may trust, or its file could not be used. */
export class CheckpointFileError extends Error {
  override name = 'CheckpointFileError';
  constructor(
    /** The path at fault. */
    readonly path: string,
    /** Why, in words that follow the path. */
    readonly why: string,
  ) {
    super(`${path}: ${why}`);
  }
}

/** What kind of thing `stat` is, in words ("a FIFO (named pipe)"). */
export function kindOf(stat: Stats): string {
  if (stat.isFile()) return 'a regular file';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  return 'a block device';
}

/** Why `stat` is not the console user's, or undefined when it is (or the system has no uids). */
function foreignOwner(stat: Stats): string | undefined {
  const own = process.getuid?.();
  if (own === undefined || stat.uid === own) return undefined;
  return `it is owned by another account (uid ${stat.uid}), not by the console's user (uid ${own})`;
}

/** Why the checkpoint file, open as `stat`, must not be written, or undefined. */
function fileFault(stat: Stats): string | undefined {
  if (!stat.isFile()) return `it is ${kindOf(stat)}, not a regular file`;
  return foreignOwner(stat);
}

/** The errors of an open with O_NOFOLLOW that mean something other than the file is there. */
export function openFault(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'EMLINK') return 'it is a symbolic link, not a regular file';
  // O_NONBLOCK on a FIFO without a reader.
  if (code === 'ENXIO') return 'it is a FIFO (named pipe), not a regular file';
  return undefined;
}

/** What the operator does about a checkpoint file the console will not write. */
const REMEDY = 'remove it, and the console creates it';

/**
 * Checks AUDIT_CHECKPOINT_DIR at start, creating it owner-only when missing: it must be a
 * directory the console's user owns, and its checkpoint file, when there, a regular file the
 * console's user owns (opened without following links). Group or other access to either is taken
 * away (they are the console's to change); returns what was so. Throws CheckpointFileError naming
 * the path and why otherwise: a place another account controls could swap the file for a link to
 * another file, or for a FIFO that hangs every write.
 */
export function checkCheckpointPlace(dir: string): LoosePath[] {
  const loose: LoosePath[] = [];
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The directory as reached: an operator may name a mount through a link.
  const dirStat = statSync(dir);
  if (!dirStat.isDirectory()) throw new CheckpointFileError(dir, `it is ${kindOf(dirStat)}`);
  const dirOwner = foreignOwner(dirStat);
  if (dirOwner) {
    throw new CheckpointFileError(
      dir,
      `${dirOwner}: another account could replace the checkpoint file; use a directory the console's user owns and no one else can write`,
    );
  }
  if ((dirStat.mode & 0o077) !== 0) {
    chmodSync(dir, 0o700);
    loose.push({ path: dir, mode: (dirStat.mode & 0o777).toString(8), tightened: true });
  }
  const file = join(dir, CHECKPOINT_FILE);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return loose;
    const fault = openFault(error);
    throw new CheckpointFileError(file, fault ? `${fault}; ${REMEDY}` : (error as Error).message);
  }
  try {
    const stat = fstatSync(fd);
    const fault = fileFault(stat);
    if (fault) throw new CheckpointFileError(file, `${fault}; ${REMEDY}`);
    if ((stat.mode & 0o077) !== 0) {
      fchmodSync(fd, 0o600);
      loose.push({ path: file, mode: (stat.mode & 0o777).toString(8), tightened: true });
    }
  } finally {
    closeSync(fd);
  }
  return loose;
}

/** Rejects with `error()` once `ms` have passed, unless `work` settled first. */
function withDeadline<T>(work: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Appends `line` and a line break to the checkpoint file, then waits for the disk, without
 * blocking the event loop and within `deadlineMs`. Opens without following links and without
 * waiting on a FIFO, and writes only to a regular file the console's user owns. Rejects with a
 * CheckpointFileError saying why otherwise; nothing was written then (or, past the deadline, the
 * write may still land, whole: one append).
 */
export function writeCheckpointLine(
  dir: string,
  line: string,
  deadlineMs = CHECKPOINT_WRITE_DEADLINE_MS,
): Promise<void> {
  const file = join(dir, CHECKPOINT_FILE);
  const write = async () => {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(
        file,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK,
        0o600,
      );
    } catch (error) {
      const fault = openFault(error);
      throw fault ? new CheckpointFileError(file, fault) : error;
    }
    try {
      const fault = fileFault(await handle.stat());
      if (fault) throw new CheckpointFileError(file, fault);
      await handle.write(`${line}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  };
  return withDeadline(
    write(),
    deadlineMs,
    () =>
      new CheckpointFileError(
        file,
        `the write did not finish within ${deadlineMs} ms (the storage does not answer)`,
      ),
  );
}
