// Files of the trail, keys and secrets that an older version (or an operator) left readable by
// others are made owner-only at start and reported; ones already private are left alone; another
// account's, or a link, are reported as not made owner-only and left as they are.
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it.skipIf(process.getuid?.() !== 0)(
    'leaves another account’s directory and a link’s target as they are, and says so (needs root to chown)',
    () => {
      const dir = join(tempDir(), 'theirs');
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755);
      chownSync(dir, 65_534, 65_534);
      const target = join(tempDir(), 'root-owned');
      writeFileSync(target, 'x');
      chmodSync(target, 0o644);
      const link = join(tempDir(), 'audit-key');
      symlinkSync(target, link);

      const loose = tightenPrivatePaths([dir, link]);
      expect(loose).toEqual([
        {
          path: dir,
          mode: '755',
          tightened: false,
          why: "it is owned by another account (uid 65534); give it to the console's user (uid 0)",
        },
        {
          path: link,
          mode: '644',
          tightened: false,
          why: 'it is a symbolic link; replace it with the file itself',
        },
      ]);
      expect(statSync(dir).mode & 0o777).toBe(0o755);
      expect(statSync(target).mode & 0o777).toBe(0o644);
    },
  );
});
