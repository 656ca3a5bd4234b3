// Opening the embedded store as an operator meets it: a DATA_DIR that cannot be written, a file
// that is not a database, or a damaged one each give one line saying what is wrong and what to
// do; and a store that could not be opened is picked up by itself once it is fixed.
import { openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DATABASE_FILE,
  explainStoreError,
  openDatabase,
  retryingDatabase,
  StoreUnavailableError,
} from './database';
import { tempDirsPerTest } from '../test-support/temp-dirs';
import * as z from 'zod';
import { integer, select } from './typed-rows';

const tempDir = tempDirsPerTest('console-store-');

describe('openDatabase', () => {
  it('names a file that is not a database and what to do about it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, DATABASE_FILE), 'this is not a database '.repeat(400));
    const error = await openDatabase({ dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe(
      `${join(dir, DATABASE_FILE)} is not a SQLite database: move it aside (the console then starts with an empty store) or restore it from a backup`,
    );
  });

  it('finds an overwritten page at start instead of failing later', async () => {
    const dir = tempDir();
    const db = await openDatabase({ dataDir: dir });
    for (let n = 0; n < 200; n += 1) {
      await db.query(
        'INSERT INTO lookup_audit (id, at, username, operation, outcome, status, key_id) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [`id-${n}`, new Date(n).toISOString(), 'admin', 'op', 'ok', 200, 'k'],
      );
    }
    // The table's own first page (not one the migrations freed); the header (page 1) stays intact.
    const { rows } = await select(
      db,
      z.object({ rootpage: integer }),
      `SELECT rootpage FROM sqlite_master WHERE name = 'lookup_audit'`,
    );
    const page = rows[0]!.rootpage;
    await db.close();
    const fd = openSync(join(dir, DATABASE_FILE), 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, (page - 1) * 4096);
    closeSync(fd);
    const error = await openDatabase({ dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/is damaged .*restore it from a backup/s);
  });

  it('says a DATA_DIR that cannot be written is not writable, with what to do', () => {
    for (const code of ['EACCES', 'EROFS', 'SQLITE_READONLY']) {
      const error = Object.assign(new Error(`${code}: nope, mkdir '/data'`), { code });
      expect(explainStoreError(error, '/data').message).toBe(
        `DATA_DIR /data is not writable (${code}): give the console's user write access or set DATA_DIR to a writable directory`,
      );
    }
  });

  it('says a DATA_DIR that cannot be created cannot be created', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a-file'), 'x');
    const error = await openDatabase({ dataDir: join(dir, 'a-file', 'data') }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(
      /^DATA_DIR .* cannot be created or opened \(ENOTDIR\)/,
    );
  });
});

describe('retryingDatabase', () => {
  it('fails fast with the last reason, then opens by itself once the store is fixed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, DATABASE_FILE), 'garbage '.repeat(600));
    const clock = { now: 0 };
    let attempts = 0;
    const opened: string[] = [];
    const db = retryingDatabase({
      open: () => {
        attempts += 1;
        return openDatabase({ dataDir: dir });
      },
      retryMs: 5_000,
      now: () => clock.now,
      onOpen: () => opened.push('open'),
    });
    await expect(db.query('SELECT 1')).rejects.toThrow('is not a SQLite database');
    await expect(db.query('SELECT 1')).rejects.toThrow('is not a SQLite database');
    expect(attempts).toBe(1);
    rmSync(join(dir, DATABASE_FILE));
    clock.now = 5_000;
    await expect(db.query('SELECT 1 AS one')).resolves.toEqual({ rows: [{ one: 1 }] });
    expect(opened).toEqual(['open']);
    await db.close();
  });
});
