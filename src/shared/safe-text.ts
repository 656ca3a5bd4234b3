// Text people name things with and other people read (integration names and owners, printed by
// the console's pages and its command line): which characters it may not hold, and when two
// names read alike. Terminal escapes, line breaks and bidi overrides could forge what a reader
// sees (a second line in `integrations -- list`, a name that displays reversed); lookalike letters
// and compatibility forms could pass for a name that exists.

/**
 * Control characters (C0 with ESC, DEL, C1), format characters (bidi embeddings, overrides and
 * isolates, zero-width joiners, the BOM) and line or paragraph separators.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** True when `text` holds a character that could change how it or what follows it is shown. */
export function hasUnsafeCharacters(text: string): boolean {
  return UNSAFE.test(text);
}

/** `text` with every such character written as `\u{…}`: safe to print on a terminal. */
export function printable(text: string): string {
  return text.replace(
    new RegExp(UNSAFE.source, 'gu'),
    (character) => `\\u{${character.codePointAt(0)?.toString(16) ?? ''}}`,
  );
}

/** Runs of white space as one space, none at either end. */
export function collapseSpaces(text: string): string {
  return text.trim().replace(/\s+/gu, ' ');
}

/**
 * Letters of other scripts that read as a Latin letter, and the digits that read as letters
 * (after case folding). Not the whole Unicode confusables table: the letters a name in a Latin
 * script is forged with in practice.
 */
const LOOKALIKES = new Map<string, string>(
  [
    // Cyrillic
    'аa вb еe ёe кk мm нh оo рp сc тt уy хx ѕs іi їi јj ԁd ԛq ԝw һh ӏl үy',
    // Greek, and the Latin script small g
    'αa βb εe ηn ιi κk νv οo ρp τt υu χx γy ɡg',
    // Digits
    '0o 1l',
  ]
    .join(' ')
    .split(' ')
    .map((pair) => [pair.slice(0, 1), pair.slice(1)] as [string, string]),
);

/**
 * What a name reads as: compatibility forms folded (NFKC: full-width letters, ligatures), case
 * folded, lookalike letters replaced by the Latin letter they pass for, spaces collapsed. Two
 * names with the same skeleton are one name to a reader.
 */
export function nameSkeleton(name: string): string {
  const folded = collapseSpaces(name.normalize('NFKC').toLowerCase());
  return Array.from(folded, (character) => LOOKALIKES.get(character) ?? character).join('');
}
