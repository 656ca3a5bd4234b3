// `npm run integrations -- add NAME [--owner TEXT] [--connection NAME] | list | rotate NAME |
// revoke NAME`: manages the integrations that report to the console, in the console's own
// database (DATABASE_URL, else SQLite under DATA_DIR). A new key is printed once; only its hash is
// stored. An integration reports to one platform connection, the first configured one unless
// `--connection` names another, checked against the console's own configuration.
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { IntegrationNameSchema, IntegrationOwnerSchema } from '../../shared/integrations';
import { printable } from '../../shared/safe-text';
import { IntegrationNameTakenError, IntegrationStore } from '../integrations/integration-store';
import type { SqlDatabase } from '../store/database';
import { databasePlaceOf, openConfiguredDatabase } from '../store/configured-database';
import { loadConfig, loadEnvironment } from '../config/config';
import { isProcessEntry } from './process-entry';

const USAGE = `Manage the integrations that report to the console (its database: DATABASE_URL, else DATA_DIR).

  npm run integrations -- add NAME [--owner "team or mailbox"] [--connection NAME]
                                                                 prints the reporting key once;
                                                                 reports count in that connection
                                                                 (default: the first configured)
  npm run integrations -- list
  npm run integrations -- rotate NAME                             prints a new key; the old one stops
  npm run integrations -- revoke NAME`;

/** Where the CLI writes; replaced in tests. */
export interface IntegrationsCliIo {
  stdout: Writable;
  stderr: Writable;
}

/** Opens the console's database as configured. */
async function openConsoleDatabase(): Promise<SqlDatabase> {
  // DATABASE_URL_FILE as the console reads it; a bad one is a ConfigError, reported by the CLI.
  const env = loadEnvironment((warning) => process.stderr.write(`warning: ${warning}\n`));
  return openConfiguredDatabase(databasePlaceOf(env));
}

/** The configured connections' names, first one first, as the console reads its configuration. */
function configuredConnections(): readonly string[] {
  return loadConfig((warning) => process.stderr.write(`warning: ${warning}\n`)).connections.map(
    (connection) => connection.name,
  );
}

/** Runs one command; resolves to the exit code. */
export async function runIntegrationsCli(
  args: string[],
  io: IntegrationsCliIo,
  open: () => Promise<SqlDatabase> = openConsoleDatabase,
  connections: () => readonly string[] = configuredConnections,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { owner: { type: 'string' }, connection: { type: 'string' } },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const [command, ...names] = parsed.positionals;
  const name = names.join(' ');
  if (
    !command ||
    !['add', 'list', 'rotate', 'revoke'].includes(command) ||
    (command !== 'list' && !name)
  ) {
    io.stderr.write(`${USAGE}\n`);
    return 2;
  }
  // Only `add` needs the configuration: the other commands find an integration by its name,
  // which is unique across connections.
  let connection: string | undefined;
  if (command === 'add') {
    const names = connections();
    connection = parsed.values.connection ?? names[0];
    if (!connection || !names.includes(connection)) {
      io.stderr.write(
        `Connection: this console serves no connection named "${printable(connection ?? '')}"; it serves ${names.map((n) => `"${n}"`).join(', ')}.\n`,
      );
      return 1;
    }
  } else if (parsed.values.connection !== undefined) {
    io.stderr.write(`--connection is for add only.\n\n${USAGE}\n`);
    return 2;
  }
  const db = await open();
  try {
    const store = new IntegrationStore(db);
    if (command === 'list') {
      const items = await store.list();
      if (items.length === 0) io.stdout.write('No integrations registered.\n');
      // Names and owners are checked when registered; one stored before those checks is still
      // printed with its control characters escaped, so it cannot forge a line of this list.
      for (const item of items) {
        io.stdout.write(
          `${printable(item.name)}\t${item.connection}\t${item.status}\t${printable(item.owner ?? '-')}\tkey …${item.keyHint ?? '-'}\tlast report ${item.lastReportAt ?? 'never'}\n`,
        );
      }
      return 0;
    }
    if (command === 'add') {
      const valid = IntegrationNameSchema.safeParse(name);
      if (!valid.success) {
        io.stderr.write(`Name: ${valid.error.issues[0]?.message ?? 'invalid'}\n`);
        return 1;
      }
      const owner = IntegrationOwnerSchema.safeParse(parsed.values.owner ?? '');
      if (!owner.success) {
        io.stderr.write(`Owner: ${owner.error.issues[0]?.message ?? 'invalid'}\n`);
        return 1;
      }
      try {
        const { key } = await store.register(valid.data, owner.data || null, connection!);
        io.stdout.write(
          `Registered "${valid.data}" for connection "${connection}". Its reporting key (shown this once; only its hash is kept):\n${key}\n`,
        );
        return 0;
      } catch (error) {
        if (error instanceof IntegrationNameTakenError) {
          io.stderr.write(`${error.message}; use rotate to issue a new key.\n`);
          return 1;
        }
        throw error;
      }
    }
    const found = await store.findByName(name);
    if (!found) {
      io.stderr.write(`No integration named "${printable(name)}".\n`);
      return 1;
    }
    if (command === 'rotate') {
      const issued = await store.rotate(found.id);
      io.stdout.write(
        `New reporting key of "${found.name}" (the old one no longer works):\n${issued?.key}\n`,
      );
      return 0;
    }
    await store.revoke(found.id);
    io.stdout.write(`Revoked the key of "${found.name}"; its reports are refused from now on.\n`);
    return 0;
  } finally {
    await db.close();
  }
}

// Run as a program (npm run integrations), not when imported by tests.
if (isProcessEntry(import.meta.url)) {
  runIntegrationsCli(process.argv.slice(2), process).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`Error: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
