// Reads the signed checkpoints a file holds (a checkpoint file, a saved log, a webhook receiver's
// records) as a stream: memory stays bounded by one line and the checkpoints found, whatever the
// file's size, and only a regular file is read (a FIFO, a device such as /dev/zero or a directory
// is refused before a byte is read).
import { constants, promises as fs } from 'node:fs';
import { CheckpointFileError, kindOf, openFault, SAFE_OPEN } from './checkpoint-file';
import { findCheckpoint } from './checkpoints';

/**
 * Longest line read, in bytes. A checkpoint line is about 400 bytes and a log line that carries
 * one a few kilobytes; longer lines are passed over unread.
 */
export const CHECKPOINT_LINE_MAX = 64 * 1024;

/** A checkpoint found in a source, and the line it was on (from 1). */
export interface FoundCheckpoint {
  readonly line: number;
  readonly checkpoint: NonNullable<ReturnType<typeof findCheckpoint>>;
}

/** The checkpoints of one place they are kept, named for the report. */
export interface CheckpointSource {
  /** "the database", "AUDIT_CHECKPOINT_DIR/audit-checkpoints.jsonl", a file given… */
  readonly name: string;
  /** What its lines held; lines that hold no checkpoint (other log lines) are passed over. */
  readonly found: readonly FoundCheckpoint[];
}

/** The checkpoint one line holds, if any: the line itself, or a log or delivery carrying one. */
function checkpointOfLine(line: string): FoundCheckpoint['checkpoint'] | undefined {
  if (line.trim() === '') return undefined;
  try {
    return findCheckpoint(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** A source from lines in memory (the database's checkpoints, a test's). */
export function checkpointSource(name: string, lines: readonly string[]): CheckpointSource {
  const found: FoundCheckpoint[] = [];
  for (const [index, line] of lines.entries()) {
    const checkpoint = checkpointOfLine(line);
    if (checkpoint) found.push({ line: index + 1, checkpoint });
  }
  return { name, found };
}

/** Why a file cannot be opened for reading, in words. */
function readFault(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'it cannot be read (permissions)';
  return openFault(error) ?? (error as Error).message;
}

/**
 * Reads the checkpoints of the file at `path`, named `name` in reports. With `followLinks` false
 * (the console's own file), a link in its place is refused. Throws CheckpointFileError naming the
 * path and why when it cannot be read or is not a regular file.
 */
export async function readCheckpointFile(
  path: string,
  { name = path, followLinks = true }: { name?: string; followLinks?: boolean } = {},
): Promise<CheckpointSource> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(
      path,
      constants.O_RDONLY | SAFE_OPEN.NONBLOCK | (followLinks ? 0 : SAFE_OPEN.NOFOLLOW),
    );
  } catch (error) {
    throw new CheckpointFileError(path, readFault(error));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new CheckpointFileError(path, `it is ${kindOf(stat)}, not a regular file`);
    }
    const found: FoundCheckpoint[] = [];
    let pieces: Buffer[] = [];
    let pending = 0;
    let skipping = false;
    let line = 0;
    const endLine = () => {
      line += 1;
      if (!skipping) {
        const checkpoint = checkpointOfLine(Buffer.concat(pieces, pending).toString('utf8'));
        if (checkpoint) found.push({ line, checkpoint });
      }
      pieces = [];
      pending = 0;
      skipping = false;
    };
    for await (const chunk of handle.createReadStream({
      autoClose: false,
    }) as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
        if (pending + end - start > CHECKPOINT_LINE_MAX) skipping = true;
        if (!skipping) pieces.push(chunk.subarray(start, end));
        pending += end - start;
        endLine();
        start = end + 1;
      }
      const rest = chunk.length - start;
      if (rest > 0 && !skipping) {
        if (pending + rest > CHECKPOINT_LINE_MAX) {
          // Too long for a checkpoint: dropped, and the rest of the line with it.
          skipping = true;
          pieces = [];
        } else pieces.push(chunk.subarray(start));
      }
      pending += rest;
    }
    if (pending > 0) endLine();
    return { name, found };
  } finally {
    await handle.close();
  }
}
