// Names that read alike are one name, and text that could forge what a reader sees is caught.
import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, nameSkeleton, printable } from './safe-text';

describe('nameSkeleton', () => {
  it('reads lookalike letters, compatibility forms, case and spaces as one name', () => {
    const skeleton = nameSkeleton('Nightly consent sync');
    // Cyrillic "с" and "о", full-width letters, doubled and trailing spaces, a digit one.
    expect(nameSkeleton('Nightly \u0441\u043ensent sync')).toBe(skeleton);
    expect(nameSkeleton('\uff2eightly consent sync')).toBe(skeleton);
    expect(nameSkeleton('NIGHTLY   consent  sync ')).toBe(skeleton);
    expect(nameSkeleton('Night1y consent sync')).toBe(skeleton);
    expect(nameSkeleton('Nightly consent sync 2')).not.toBe(skeleton);
  });
});

describe('unsafe characters', () => {
  it('catches terminal escapes, line breaks, bidi overrides and zero-width characters', () => {
    for (const text of ['a\u001b[2Jb', 'a\nb', 'a\u202eb', 'a\u2066b', 'a\u200bb', 'a\u2028b']) {
      expect(hasUnsafeCharacters(text)).toBe(true);
    }
    expect(hasUnsafeCharacters('data-platform team (Zoë)')).toBe(false);
  });

  it('prints them as escapes', () => {
    expect(printable('team\n\u001b[31mforged')).toBe('team\\u{a}\\u{1b}[31mforged');
  });
});
