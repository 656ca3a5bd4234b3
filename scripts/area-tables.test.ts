// Each table of the console's database belongs to one area of the BFF: only that area's source
// names it in SQL. What another area needs of it goes through a port the composition root fills
// in (docs/architecture.md §2), so a table's shape can change inside its own area. This lists
// every table the migrations create and finds the areas whose SQL names it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/server/store/migrations';

const SERVER = 'src/server';

const tables = [
  ...new Set(
    MIGRATIONS.flatMap(({ sql }) =>
      [...sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)].map((match) => match[1]!),
    ),
  ),
].sort();

function sourcesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourcesOf(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)
      ? [readFileSync(path, 'utf8')]
      : [];
  });
}

// An area is a folder with its `<area>-module.ts` (docs/architecture.md, "Adding an area").
const areas = readdirSync(SERVER, { withFileTypes: true })
  .filter(
    (entry) =>
      entry.isDirectory() && existsSync(join(SERVER, entry.name, `${entry.name}-module.ts`)),
  )
  .map((entry) => ({ name: entry.name, sources: sourcesOf(join(SERVER, entry.name)) }));

/** Whether `source` names `table` in a statement, or as a quoted name a statement is built with. */
function names(source: string, table: string): boolean {
  return new RegExp(
    `\\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\\s+${table}\\b|['"\`]${table}['"\`]`,
  ).test(source);
}

describe('the tables of the console database', () => {
  it('are found in the migrations', () => {
    expect(tables).toContain('lookup_audit');
    expect(tables).toContain('integration_minutes');
    expect(areas.map((area) => area.name)).toEqual(expect.arrayContaining(['planning', 'auth']));
  });

  it.each(tables)('%s is named in the SQL of one area only', (table) => {
    const naming = areas
      .filter((area) => area.sources.some((source) => names(source, table)))
      .map((area) => area.name)
      .sort();
    expect(naming).toEqual(naming.slice(0, 1));
  });
});
