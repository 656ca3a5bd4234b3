// The shell recipes docs/audit-trail.md gives an auditor ("Verifying with standard tools alone"),
// read from the doc itself and run with the real bash, openssl, jq and sha256sum, so the tests
// check the very commands an auditor copies.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** The shell block between `<!-- recipe: name -->` and `<!-- end recipe -->` in the doc. */
export function recipe(name: string): string {
  const doc = readFileSync(join(process.cwd(), 'docs', 'audit-trail.md'), 'utf8');
  const start = doc.indexOf(`<!-- recipe: ${name} -->`);
  const end = doc.indexOf('<!-- end recipe -->', start);
  expect(start, `docs/audit-trail.md has the recipe ${name}`).toBeGreaterThan(0);
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(start, end));
  expect(block).not.toBeNull();
  return block![1]!;
}

/** Runs a recipe with bash in `dir`, with `env`; exit code and what it printed. */
export function runRecipe(script: string, dir: string, env: Record<string, string>) {
  const result = spawnSync('bash', ['-c', script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The standard tools the recipes need that this machine lacks (none, on CI). */
export const MISSING_TOOLS = ['openssl', 'jq', 'sha256sum', 'base64'].filter(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
);
