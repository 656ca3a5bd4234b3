import { describe, expect, it } from 'vitest';
import { generateEventTypes } from '../../mocks/data/event-types';
import { UpstreamEventTypesSchema } from '../../shared/event-types';
import { isCanonicalEventTypeListText } from './event-type-list-scan';

/** The definition: the text parses, and the schema returns exactly what it holds. */
function isCanonicalByParsing(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const result = UpstreamEventTypesSchema.safeParse(parsed);
  return result.success && JSON.stringify(result.data) === JSON.stringify(parsed);
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('isCanonicalEventTypeListText', () => {
  it('recognises the mock data set as the upstream sends it', () => {
    const text = JSON.stringify(generateEventTypes(500));
    expect(isCanonicalEventTypeListText(text)).toBe(true);
    expect(
      isCanonicalEventTypeListText(` \n${JSON.stringify(generateEventTypes(10), null, 2)}\n`),
    ).toBe(true);
  });

  it.each([
    ['an empty list', '[]', true],
    ['escapes in values', '[{"value":"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9"}]', true],
    ['a negative code', '[{"code":-12}]', true],
    ['an empty record', '[{}]', true],
    ['a trailing comma in the list', '[{"code":1},]', false],
    ['a trailing comma in a record', '[{"code":1,}]', false],
    ['a leading zero', '[{"code":01}]', false],
    ['a fraction', '[{"code":1.0}]', false],
    ['an exponent', '[{"code":1e3}]', false],
    ['16 digits', '[{"code":1234567890123456}]', false],
    ['a string code', '[{"code":"1"}]', false],
    ['a null', '[{"value":null}]', false],
    ['an unknown key', '[{"codex":1}]', false],
    ['an escaped key', '[{"co\\u0064e":1}]', false],
    ['a raw control character', '[{"value":"a\u0001b"}]', false],
    ['a bad escape', '[{"value":"a\\xb"}]', false],
    ['a short unicode escape', '[{"value":"\\u12"}]', false],
    ['an unterminated string', '[{"value":"abc}]', false],
    ['text after the list', '[] []', false],
    ['an object', '{"items":[]}', false],
    ['nothing', '', false],
  ])('answers %s: %j', (_, text, expected) => {
    expect(isCanonicalEventTypeListText(text)).toBe(expected);
    // Never true where parsing says otherwise.
    if (expected) expect(isCanonicalByParsing(text)).toBe(true);
  });

  it('never says yes to a text that is not, to the letter, a canonical list (10,000 mutations)', () => {
    const next = random(42);
    const base = JSON.stringify(generateEventTypes(6));
    const alphabet = '{}[]",:\\-0123456789.eE unlx\n\u0000';
    let accepted = 0;
    for (let i = 0; i < 10_000; i += 1) {
      let text = base;
      const edits = 1 + Math.floor(next() * 3);
      for (let e = 0; e < edits; e += 1) {
        const at = Math.floor(next() * text.length);
        const kind = next();
        const char = alphabet[Math.floor(next() * alphabet.length)]!;
        text =
          kind < 0.4
            ? text.slice(0, at) + text.slice(at + 1) // delete
            : kind < 0.7
              ? text.slice(0, at) + char + text.slice(at) // insert
              : text.slice(0, at) + char + text.slice(at + 1); // replace
      }
      if (isCanonicalEventTypeListText(text)) {
        accepted += 1;
        expect(isCanonicalByParsing(text), text).toBe(true);
      }
    }
    // Some mutations stay canonical (a digit for a digit, a letter in a name): the test sees both.
    expect(accepted).toBeGreaterThan(100);
  });
});
