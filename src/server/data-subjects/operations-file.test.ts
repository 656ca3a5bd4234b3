// DATA_SUBJECT_OPERATIONS_FILE: overrides move an operation's path and parameters without a code
// change; a bad file stops the start with one line naming the variable, the file and the fault.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_OPERATIONS } from '../../shared/data-subject-operations';
import { ConfigError } from '../config/config';
import { identifierPlacementWarnings, loadOperationsCatalog } from './operations-file';

const dir = mkdtempSync(join(tmpdir(), 'console-operations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function file(content: unknown): string {
  const path = join(dir, `operations-${(files += 1)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** The catalog as loaded from a file that moves only the purposes list, to `path`. */
function purposesMovedTo(path: string) {
  return loadOperationsCatalog(file({ operations: { 'v4-purposes': { path } } }));
}

function failure(path: string): string {
  try {
    loadOperationsCatalog(path);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected the file to be refused');
}

describe('loadOperationsCatalog', () => {
  it('is the built-in catalog without a file', () => {
    expect(loadOperationsCatalog(undefined)).toEqual(BUILT_IN_OPERATIONS);
  });

  it('moves a path and a parameter, marks the operation overridden and re-matches its limit', () => {
    const operations = loadOperationsCatalog(
      file({
        operations: {
          'v4-purposes': {
            path: '/v4/datasubjects/profiles',
            params: { identifier: { location: 'query', wireName: 'dataSubjectIdentifier' } },
          },
          'v4-link-tokens': {
            path: '/v4/linktokens',
            continuation: { location: 'header', wireName: 'x-continuation' },
          },
        },
      }),
    );
    const purposes = operations.find((op) => op.id === 'v4-purposes');
    expect(purposes).toMatchObject({
      path: '/v4/datasubjects/profiles',
      overridden: true,
      documented: false,
    });
    expect(purposes?.params[0]).toMatchObject({
      name: 'identifier',
      location: 'query',
      wireName: 'dataSubjectIdentifier',
    });
    // Moved back to the documented address, it is documented again.
    const back = purposesMovedTo('/rest/api/consent/v4/datasubjects/ds-profiles');
    expect(back.find((op) => op.id === 'v4-purposes')).toMatchObject({
      overridden: true,
      documented: true,
    });
    expect(operations.find((op) => op.id === 'v4-link-tokens')?.continuation).toEqual({
      location: 'header',
      wireName: 'x-continuation',
      responseField: 'requestContinuation',
    });
    // A path moved under a documented module rule is counted by it.
    const moved = purposesMovedTo('/rest/api/consent/v4/datasubjects/ds-profiles/all');
    expect(moved.find((op) => op.id === 'v4-purposes')?.moduleRule).toBe('v4-ds-profiles-minute');
    expect(moved.filter((op) => op.overridden)).toHaveLength(1);
  });

  it('warns when an identifier is moved out of its header into the URL', () => {
    expect(identifierPlacementWarnings(BUILT_IN_OPERATIONS)).toEqual([]);
    const operations = loadOperationsCatalog(
      file({ operations: { 'v4-purposes': { params: { identifier: { location: 'query' } } } } }),
    );
    expect(identifierPlacementWarnings(operations)).toEqual([
      "DATA_SUBJECT_OPERATIONS_FILE puts v4-purposes's identifier in the query: it will be part of upstream URLs",
    ]);
  });

  it.each([
    [
      'a missing file',
      null,
      /^DATA_SUBJECT_OPERATIONS_FILE names a file that does not exist \(file /,
    ],
    ['invalid JSON', '{ operations: ', /^DATA_SUBJECT_OPERATIONS_FILE is not valid JSON \(file /],
    [
      'a file without operations',
      { operation: {} },
      /^DATA_SUBJECT_OPERATIONS_FILE is invalid: operations is missing \(file /,
    ],
    [
      'an unknown field',
      { operations: { 'v4-details': { url: '/x' } } },
      /^DATA_SUBJECT_OPERATIONS_FILE is invalid: operations\.v4-details has unknown field url/,
    ],
    [
      'an unknown operation',
      { operations: { 'v4-everything': { path: '/v4/x' } } },
      /^DATA_SUBJECT_OPERATIONS_FILE operations\.v4-everything is not an operation of the catalog/,
    ],
    [
      'an unknown parameter',
      { operations: { 'v4-details': { params: { email: { location: 'query' } } } } },
      /operations\.v4-details\.params\.email is not a parameter of that operation/,
    ],
    [
      'a path without a leading slash',
      { operations: { 'v4-details': { path: 'v4/details' } } },
      /operations\.v4-details\.path must start with "\/"/,
    ],
    [
      'a path with a dot segment',
      { operations: { 'v4-details': { path: '/v4/../admin' } } },
      /operations\.v4-details\.path must be plain segments/,
    ],
    [
      'a location that does not exist',
      { operations: { 'v4-details': { params: { identifier: { location: 'body' } } } } },
      /operations\.v4-details\.params\.identifier\.location/,
    ],
    [
      'a path parameter without its placeholder',
      { operations: { 'v4-purpose-profile': { path: '/v4/datasubjects/profile' } } },
      /operations\.v4-purpose-profile\.path must contain \{purposeGuid\}/,
    ],
    [
      'a placeholder nothing fills',
      { operations: { 'v4-details': { path: '/v4/datasubjects/{id}/details' } } },
      /operations\.v4-details\.path has \{id\}, which no path parameter fills/,
    ],
    [
      'an optional parameter moved into the path',
      {
        operations: {
          'v4-purposes-by-date': {
            path: '/v4/purposes/{status}',
            params: { status: { location: 'path' } },
          },
        },
      },
      /params\.status is optional, so it cannot go in the path/,
    ],
    [
      'a header the console sets itself',
      {
        operations: {
          'v4-details': { params: { identifier: { wireName: 'Authorization' } } },
        },
      },
      /wireName "Authorization" is a header the console sets itself/,
    ],
    [
      'two parameters on one query name',
      {
        operations: {
          'v4-purposes-by-date': { params: { updatedUntil: { wireName: 'updatedSince' } } },
        },
      },
      /uses the query name "updatedSince" twice/,
    ],
    [
      'a continuation for an operation that does not page',
      { operations: { 'v4-details': { continuation: { location: 'query' } } } },
      /does not page with a continuation token/,
    ],
  ])('stops with one clear line for %s', (_, content, message) => {
    const path = content === null ? join(dir, 'missing.json') : file(content);
    const line = failure(path);
    expect(line).toMatch(message);
    expect(line).toContain(path);
  });

  it('stops the console at start, before it listens, with that one line', () => {
    const path = file({ operations: { 'v4-details': { path: 'no-slash' } } });
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
      env: {
        PATH: process.env.PATH,
        DATA_SUBJECT_OPERATIONS_FILE: path,
        DATA_DIR: join(dir, 'data'),
        PORT: '1',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(
      `Configuration error: DATA_SUBJECT_OPERATIONS_FILE is invalid: operations.v4-details.path must start with "/" (file ${path})`,
    );
  }, 60_000);
});
