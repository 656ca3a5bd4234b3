// A write to the embedded store is reported done only once the disk holds it, and the wait for
// the disk happens off the event loop: the flush of the write-ahead log is held or failed here
// through the store's stand-in for `fdatasync`, to see what a caller sees while the disk works and
// when it fails.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { DATABASE_FILE, openDatabase, StoreUnavailableError, type SqlDatabase } from './database';
import { integer, select } from './typed-rows';
import { tempDirsPerTest } from '../test-support/temp-dirs';

const tempDir = tempDirsPerTest('console-log-flush-');

/** A disk whose flushes the test finishes or fails one by one. */
function heldDisk() {
  const flushes: Array<{ done: () => void; fail: (error: Error) => void }> = [];
  const flushFile = () =>
    new Promise<void>((resolve, reject) => {
      flushes.push({ done: resolve, fail: reject });
    });
  return { flushes, flushFile };
}

/** Whether `promise` has settled, after the event loop has had its turns. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const MINE = 'flush-test-';

const write = (db: SqlDatabase, name: string, value: number) =>
  db.transaction((tx) =>
    tx.query('INSERT INTO store_counters (name, value) VALUES ($1, $2)', [`${MINE}${name}`, value]),
  );

/** The counters this test wrote (the migrations seed their own). */
async function counters(db: SqlDatabase): Promise<string[]> {
  const { rows } = await select(
    db,
    z.object({ name: z.string(), value: integer }),
    'SELECT name, value FROM store_counters WHERE name LIKE $1 ORDER BY name',
    [`${MINE}%`],
  );
  return rows.map((row) => `${row.name.slice(MINE.length)}=${row.value}`);
}

async function openHeld() {
  const disk = heldDisk();
  const dataDir = tempDir();
  // Opening migrates, and each migration waits for its own flush.
  const opening = openDatabase({ dataDir, flushFile: disk.flushFile });
  while (!(await settled(opening))) disk.flushes.shift()?.done();
  disk.flushes.length = 0;
  return { db: await opening, disk, dataDir };
}

describe('the embedded store waits for the disk off the event loop', () => {
  it('reports a transaction done only after the log was flushed, serving reads meanwhile', async () => {
    const { db, disk } = await openHeld();
    const committing = write(db, 'a', 1);
    await vi.waitFor(() => expect(disk.flushes).toHaveLength(1));
    expect(await settled(committing)).toBe(false);
    // The event loop is free while the disk works: the committed row can already be read.
    expect(await counters(db)).toContain('a=1');
    disk.flushes[0]!.done();
    await committing;
    await db.close();
  });

  it('never counts a flush that began before a commit as that commit’s', async () => {
    const { db, disk } = await openHeld();
    const first = write(db, 'a', 1);
    await vi.waitFor(() => expect(disk.flushes).toHaveLength(1));
    // Two more commit while the first flush runs; the flush may have begun before their writes.
    const second = write(db, 'b', 2);
    const third = write(db, 'c', 3);
    expect(await settled(Promise.all([second, third]))).toBe(false);
    disk.flushes[0]!.done();
    await first;
    expect(await settled(second)).toBe(false);
    expect(await settled(third)).toBe(false);
    // One more flush covers both of them.
    await vi.waitFor(() => expect(disk.flushes).toHaveLength(2));
    disk.flushes[1]!.done();
    await Promise.all([second, third]);
    expect(disk.flushes).toHaveLength(2);
    await db.close();
  });

  it('makes a statement written outside a transaction wait for the disk too', async () => {
    const { db, disk } = await openHeld();
    const writing = db.query('INSERT INTO store_counters (name, value) VALUES ($1, $2)', [
      `${MINE}x`,
      7,
    ]);
    await vi.waitFor(() => expect(disk.flushes).toHaveLength(1));
    expect(await settled(writing)).toBe(false);
    // A read does not wait for anyone's flush.
    expect(await counters(db)).toEqual(['x=7']);
    disk.flushes[0]!.done();
    await writing;
    await db.close();
  });

  it('after a failed flush refuses every later write with one line saying what to do', async () => {
    const { db, disk, dataDir } = await openHeld();
    const committing = write(db, 'a', 1);
    await vi.waitFor(() => expect(disk.flushes).toHaveLength(1));
    const waiting = write(db, 'b', 2);
    await vi.waitFor(async () => expect(await counters(db)).toContain('b=2'));
    disk.flushes[0]!.fail(Object.assign(new Error('input/output error'), { code: 'EIO' }));
    const error = await committing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe(
      `The disk holding ${join(dataDir, DATABASE_FILE)} failed to flush a write (EIO): the console writes nothing more until it is restarted; check the disk, then restart it`,
    );
    // The write that was waiting for the next flush fails with it, and so does any later one,
    // without running: the kernel may report the next flush a success after losing pages.
    await expect(waiting).rejects.toBe(error);
    const work = vi.fn(async () => undefined);
    await expect(db.transaction(work)).rejects.toBe(error);
    expect(work).not.toHaveBeenCalled();
    expect(disk.flushes).toHaveLength(1);
    // What was committed stays readable.
    expect(await counters(db)).toEqual(['a=1', 'b=2']);
    await db.close();
  });

  it('flushes with the real disk: parallel writes all land and survive reopening', async () => {
    const dataDir = tempDir();
    const db = await openDatabase({ dataDir });
    expect(existsSync(join(dataDir, `${DATABASE_FILE}-wal`))).toBe(true);
    await Promise.all(Array.from({ length: 20 }, (_, n) => write(db, `w${n}`, n)));
    await db.close();
    const again = await openDatabase({ dataDir });
    expect(await counters(again)).toHaveLength(20);
    await again.close();
  });
});
