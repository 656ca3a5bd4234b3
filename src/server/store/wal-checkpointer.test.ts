// The embedded store's checkpoints run in a thread, not inside the console's COMMITs: while the
// thread runs, the console's connection copies nothing into the database file by itself, the
// thread does, and the log stays short; if the thread ends or the log runs long, the connection
// takes its checkpoints back. Checked on real SQLite files, reading SQLite's own settings and the
// files on disk.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker } from '../runtime/start-worker';
import { tempDirsPerTest } from '../test-support/temp-dirs';
import { DATABASE_FILE, openDatabase } from './database';
import { SQLITE_AUTOCHECKPOINT, walCheckpointer, type WalCheckpointer } from './wal-checkpointer';

const tempDir = tempDirsPerTest('console-wal-checkpoint-');
const PAGE = 4096;
const open: Array<{ connection: Database.Database; checkpointer?: WalCheckpointer }> = [];

afterEach(async () => {
  for (const { connection, checkpointer } of open.splice(0)) {
    await checkpointer?.close();
    connection.close();
  }
});

/** A database in WAL mode, as the console opens it, with a table of page-sized rows. */
function database() {
  const file = join(tempDir(), DATABASE_FILE);
  const connection = new Database(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.exec('CREATE TABLE pages (id integer PRIMARY KEY, body blob NOT NULL)');
  const entry: (typeof open)[number] = { connection };
  open.push(entry);
  const insert = connection.prepare('INSERT INTO pages (body) VALUES (?)');
  return {
    file,
    connection,
    entry,
    /** Commits `rows` rows of about a page each, one transaction each. */
    write(rows: number, checkpointer?: WalCheckpointer) {
      for (let i = 0; i < rows; i += 1) {
        insert.run(Buffer.alloc(PAGE - 200, i % 251));
        checkpointer?.committed();
      }
    },
  };
}

const startThread = (file: string): Worker =>
  startWorker(
    new URL('./wal-checkpoint-thread.ts', import.meta.url),
    new URL('./store/wal-checkpoint-thread.js', import.meta.url),
    { workerData: { file } },
  );

async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const autocheckpoint = (connection: Database.Database) =>
  connection.pragma('wal_autocheckpoint', { simple: true }) as number;
const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
/** The pages the log holds now (SQLite's count, from a checkpoint on a connection of its own). */
function framesInLog(file: string): number {
  const connection = new Database(file);
  try {
    const [row] = connection.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    return row?.log ?? -1;
  } finally {
    connection.close();
  }
}

describe('checkpoints in a thread', () => {
  it('copies the log into the database file from its thread while the connection checkpoints nothing', async () => {
    const db = database();
    const checkpointer = walCheckpointer(db.connection, {
      start: () => startThread(db.file),
      everyMs: 20,
    });
    db.entry.checkpointer = checkpointer;
    await until(() => checkpointer.offThread, 'the thread to be ready');
    expect(autocheckpoint(db.connection)).toBe(0);
    const before = size(db.file);

    // 1,500 pages: past SQLite's own threshold of 1,000, where the connection would checkpoint.
    db.write(1_500, checkpointer);
    await until(() => size(db.file) >= before + 1_500 * PAGE, 'the rows in the database file');
    expect(autocheckpoint(db.connection)).toBe(0);

    // The log restarted from its beginning after a complete checkpoint: it holds the new rows
    // only. (Its file keeps its size: SQLite writes over it from the start.)
    await new Promise((resolve) => setTimeout(resolve, 100));
    db.write(100, checkpointer);
    expect(framesInLog(db.file)).toBeLessThan(1_000);
  });

  it('leaves the log to grow untouched without the thread, so the copy above is the thread’s', async () => {
    const db = database();
    const checkpointer = walCheckpointer(db.connection, {
      start: () => startThread(db.file),
      // The first checkpoint only: the thread is ready, and then waits ten minutes.
      everyMs: 600_000,
    });
    db.entry.checkpointer = checkpointer;
    await until(() => checkpointer.offThread, 'the thread to be ready');
    db.write(1, checkpointer);
    // That commit's checkpoint runs at once; none follows for ten minutes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = size(db.file);
    db.write(1_500, checkpointer);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(size(db.file)).toBe(before);
    expect(size(`${db.file}-wal`)).toBeGreaterThan(1_500 * PAGE);
  });

  it('gives the checkpoints back to the connection while a reader holds the log over its limit', async () => {
    const db = database();
    const checkpointer = walCheckpointer(db.connection, {
      start: () => startThread(db.file),
      everyMs: 20,
      logLimit: 100,
    });
    db.entry.checkpointer = checkpointer;
    await until(() => checkpointer.offThread, 'the thread to be ready');
    // A long read (a what-if replay's connection, say) keeps its snapshot: no checkpoint may copy
    // past it, and the log cannot restart.
    const reader = new Database(db.file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM pages').get();
    db.write(300, checkpointer);
    await until(() => autocheckpoint(db.connection) === SQLITE_AUTOCHECKPOINT, 'the connection');
    expect(checkpointer.offThread).toBe(false);

    // The reader done, a copy of the whole log lets the next write restart it, and the thread,
    // finding it short, takes over again.
    reader.exec('COMMIT');
    reader.close();
    await until(() => {
      db.write(1, checkpointer);
      return autocheckpoint(db.connection) === 0;
    }, 'the thread to take over again');
    expect(checkpointer.offThread).toBe(true);
  });

  it('keeps the log short under writes that never pause, by giving the last copy to the connection', async () => {
    const db = database();
    const checkpointer = walCheckpointer(db.connection, {
      start: () => startThread(db.file),
      everyMs: 5,
      logLimit: 500,
    });
    db.entry.checkpointer = checkpointer;
    await until(() => checkpointer.offThread, 'the thread to be ready');
    // As the store's group commit under load: the next transaction opens as the last one commits,
    // and each stays open while the event loop turns, so every copy the thread finishes ends
    // inside a transaction and no write ever begins after a complete one.
    let longest = 0;
    for (let batch = 0; batch < 400; batch += 1) {
      db.connection.exec('BEGIN IMMEDIATE');
      db.write(15);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 1));
      db.connection.exec('COMMIT');
      checkpointer.committed();
      longest = Math.max(longest, size(`${db.file}-wal`));
    }
    // 6,000 pages written; the log restarted whenever it passed its limit.
    expect(longest).toBeLessThan(2_000 * (PAGE + 24));
  });

  it('gives the checkpoints back to the connection for good when the thread ends', async () => {
    const db = database();
    let thread: Worker | undefined;
    const failures: Array<[string, boolean]> = [];
    const checkpointer = walCheckpointer(db.connection, {
      start: () => (thread = startThread(db.file)),
      onFailure: (message, ended) => failures.push([message, ended]),
    });
    db.entry.checkpointer = checkpointer;
    await until(() => checkpointer.offThread, 'the thread to be ready');
    await thread?.terminate();
    await until(() => failures.length > 0, 'the failure to be told');
    expect(failures[0]?.[1]).toBe(true);
    expect(autocheckpoint(db.connection)).toBe(SQLITE_AUTOCHECKPOINT);
    expect(checkpointer.offThread).toBe(false);

    // SQLite's own checkpoints keep the log near its 1,000 pages.
    db.write(3_000, checkpointer);
    expect(framesInLog(db.file)).toBeLessThan(SQLITE_AUTOCHECKPOINT + 10);
  });
});

describe('the console’s store with its checkpoint thread', () => {
  it('closes the thread’s connection first, so the console’s last one removes the log', async () => {
    const dataDir = tempDir();
    const db = await openDatabase({ dataDir, checkpointThread: { everyMs: 10 } });
    for (let i = 0; i < 50; i += 1) {
      await db.query('INSERT INTO store_counters (name, value) VALUES ($1, $2)', [`w${i}`, i]);
    }
    expect(existsSync(join(dataDir, `${DATABASE_FILE}-wal`))).toBe(true);
    await db.close();
    expect(existsSync(join(dataDir, `${DATABASE_FILE}-wal`))).toBe(false);
  });
});
