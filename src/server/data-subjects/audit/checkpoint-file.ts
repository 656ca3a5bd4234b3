// Checkpoints outside the database: one JSON line each, appended to
// AUDIT_CHECKPOINT_DIR/audit-checkpoints.jsonl and flushed to the disk before the checkpoint is
// reported written, so `kill -9` loses none that was reported. The operator mounts storage there
// that the database's users cannot rewrite (write-once, another account, a synced bucket).
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The file inside AUDIT_CHECKPOINT_DIR. */
export const CHECKPOINT_FILE = 'audit-checkpoints.jsonl';

/** Appends `line` and a line break, then waits for the disk. Owner-only file and directory. */
export function appendCheckpointLine(dir: string, line: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fd = openSync(join(dir, CHECKPOINT_FILE), 'a', 0o600);
  try {
    writeSync(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A checkpoint file could not be read: names the path and why. */
export class CheckpointFileError extends Error {
  override name = 'CheckpointFileError';
}

/**
 * The lines of a file of checkpoints (a checkpoint file, a saved log, a receiver's records). A
 * directory means its audit-checkpoints.jsonl.
 */
export function readCheckpointLines(path: string, isDirectory = false): string[] {
  const file = isDirectory ? join(path, CHECKPOINT_FILE) : path;
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'it does not exist'
        : code === 'EACCES'
          ? 'it cannot be read (permissions)'
          : code === 'EISDIR'
            ? 'it is a directory, not a file'
            : (error as Error).message;
    throw new CheckpointFileError(`cannot read the checkpoint file ${file}: ${why}`);
  }
}
