// Files of the trail, keys and secrets that an older version (or an operator) left readable by
// others are made owner-only at start and reported; ones already private are left alone.
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirsPerTest } from '../test-support/temp-dirs';
import { tightenPrivatePaths } from './private-files';

const tempDir = tempDirsPerTest('private-files-');

describe('tightenPrivatePaths', () => {
  it('makes loose files 0600 and directories 0700, and says which with their old mode', () => {
    const dir = join(tempDir(), 'data');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const store = join(dir, 'console.sqlite');
    const key = join(dir, 'audit-key');
    writeFileSync(store, '');
    chmodSync(store, 0o644);
    writeFileSync(key, 'k', { mode: 0o600 });
    chmodSync(key, 0o600);

    const loose = tightenPrivatePaths([dir, store, key, join(dir, 'missing')]);
    expect(loose).toEqual([
      { path: dir, mode: '755', tightened: true },
      { path: store, mode: '644', tightened: true },
    ]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(tightenPrivatePaths([dir, store, key])).toEqual([]);
  });
});
