// PostgreSQL going away under a replica: what is in flight fails on its own, the process lives on,
// and the next request works once the server is back.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSchema, STORE_ENGINES, TEST_DATABASE_URL } from '../test-support/store-engines';
import { startTcpProxy } from '../test-support/tcp-proxy';
import { openPostgresDatabase } from './postgres-database';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// The engine's title says how to run the suite when it is skipped.
const postgres = STORE_ENGINES.find((engine) => engine.name === 'PostgreSQL')!;

describe.skipIf(!postgres.available)(postgres.title, () => {
  it('a connection lost mid-transaction fails that transaction, crashes nothing, and the next one works once the server is back', async () => {
    const schema = await createTestSchema(TEST_DATABASE_URL!);
    cleanups.push(() => schema.drop());
    const target = new URL(schema.url);
    const relay = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    cleanups.push(() => relay.close());
    target.port = String(relay.port);
    const db = await openPostgresDatabase({ url: target.toString(), connectTimeoutMs: 2_000 });
    cleanups.push(() => db.close());
    await db.exec('CREATE TABLE notes (body TEXT NOT NULL)');

    // An error event nobody listens to would reach the process as an uncaught exception.
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    cleanups.push(async () => {
      process.off('uncaughtException', record);
    });

    let connectionCut!: () => void;
    const cut = new Promise<void>((resolve) => (connectionCut = resolve));
    const transaction = db.transaction(async (run) => {
      await run.query('INSERT INTO notes (body) VALUES ($1)', ['before the cut']);
      // The connection drops between two statements, while the transaction is open.
      await cut;
      await run.query('INSERT INTO notes (body) VALUES ($1)', ['after the cut']);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await relay.cut();
    // Lets the client see its socket close before the next statement is sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    connectionCut();
    await expect(transaction).rejects.toThrow();
    expect(uncaught).toEqual([]);

    await relay.restore();
    await db.transaction(async (run) => {
      await run.query('INSERT INTO notes (body) VALUES ($1)', ['once it is back']);
    });
    const { rows } = await db.query('SELECT body FROM notes ORDER BY body');
    // Nothing of the failed transaction was committed.
    expect(rows).toEqual([{ body: 'once it is back' }]);
  });
});
