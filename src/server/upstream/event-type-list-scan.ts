// Recognises, in one pass over the text and without building any object, an upstream answer that
// is already exactly what UpstreamEventTypesSchema returns: a JSON array of objects whose only
// keys are the four known fields, `code` a plain integer and the others strings. Such a text can
// go to the browser as it is. Anything else — or anything this strict reader is unsure of (an
// escaped key, an exponent, a 16-digit code, a null) — answers false and takes the parsing path,
// so a false is always safe; a true must never be given to text that is not valid JSON of that
// shape. Parsing 500 event types into objects cost more CPU and garbage collection than the rest
// of the uncached request together.

// JSON's white space: narrower than the regular expression \s.
const SPACE = '[ \\t\\n\\r]*';
// A JSON string: no raw control characters, only JSON's escapes.
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;
// A plain integer of at most 15 digits (every one a safe integer), no fraction or exponent.
const CODE = String.raw`-?(?:0|[1-9][0-9]{0,14})(?![0-9.eE])`;
// Keys written without escapes; an escaped key is valid JSON too, but takes the parsing path.
const PAIR = `(?:"code"${SPACE}:${SPACE}${CODE}|"(?:value|objectTypeName|moduleName)"${SPACE}:${SPACE}${STRING})`;
/**
 * One record and the white space around it, matched where the scan stands (sticky). Records are
 * short, so the regular expression engine (native code) does the character work with no risk of
 * runaway backtracking, and the loop below only steps from record to record.
 */
const RECORD = new RegExp(
  `${SPACE}\\{${SPACE}(?:${PAIR}(?:${SPACE},${SPACE}${PAIR})*)?${SPACE}\\}${SPACE}`,
  'y',
);
const LIST_START = new RegExp(`${SPACE}\\[${SPACE}`, 'y');
const LIST_END = new RegExp(`\\]${SPACE}$`, 'y');

/** True when `text` is, to the letter, a JSON list of event types as the schema returns them. */
export function isCanonicalEventTypeListText(text: string): boolean {
  LIST_START.lastIndex = 0;
  if (!LIST_START.test(text)) return false;
  let position = LIST_START.lastIndex;
  if (text.charCodeAt(position) !== 0x5d /* ] */) {
    for (;;) {
      RECORD.lastIndex = position;
      if (!RECORD.test(text)) return false;
      position = RECORD.lastIndex;
      if (text.charCodeAt(position) !== 0x2c /* , */) break;
      position += 1;
    }
  }
  LIST_END.lastIndex = position;
  return LIST_END.test(text);
}
