// The checks configuration values share, whether a variable or CONNECTIONS_FILE gives them, and
// how a value is shown in an error: each rule and its message written once.
import { z } from 'zod';

/**
 * A whole number from `min` to `max`. A variable's text is read as `Number` reads it (as
 * z.coerce.number did before the connections file existed, so every variable keeps its meaning);
 * a JSON number is taken as it is, and anything else (true, null, a list) is refused.
 */
export const intIn = (min: number, max: number, message?: string) => {
  const error = message ?? `must be a whole number from ${min} to ${max}`;
  return z.preprocess(
    (value) => (typeof value === 'string' ? Number(value) : value),
    z.number({ error }).int(error).min(min, error).max(max, error),
  );
};

/** `value` as a URL, or undefined: a refinement runs even after the format check failed. */
export const urlOf = (value: string): URL | undefined =>
  URL.canParse(value) ? new URL(value) : undefined;

/** An absolute http(s) URL without a query, a fragment or credentials in it. */
export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .refine(
    (value) => !urlOf(value)?.search && !urlOf(value)?.hash,
    'must not carry a query or fragment',
  )
  .refine(
    (value) => !urlOf(value)?.username && !urlOf(value)?.password,
    'must not carry credentials (the client id and secret are set on their own)',
  );

/** An empty value counts as unset, as it does for every variable of the configuration. */
export const unsetIfEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

/** An optional string that is not empty. */
export const optionalNonEmpty = unsetIfEmpty(z.string({ error: 'must be text' }).min(1).optional());

/** Text shown on a page (a name, whom to ask): at most `max` characters, no control characters. */
export const plainText = (max: number) =>
  z
    .string({ error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'must be plain text');

/** Space-separated OAuth scope names (RFC 6749 §3.3). */
export const scopeNames = z
  .string({ error: 'must be space-separated scope names' })
  .regex(
    /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/,
    'must be space-separated scope names',
  );

/**
 * A value as it may be shown in an error: a URL's password (and a user name alone, which some
 * services use as the secret) replaced, so a configuration error never repeats a credential.
 * Values that are not URLs are shown as they are; the caller never shows a secret's variable.
 */
export function redactedValue(value: string): string {
  // Also values the URL parser refuses: anything between "//" and "@" is user info.
  return value.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i,
    (_whole, scheme: string, userInfo: string) => {
      const colon = userInfo.indexOf(':');
      return colon === -1 ? `${scheme}***@` : `${scheme}${userInfo.slice(0, colon)}:***@`;
    },
  );
}

/** The longest value an error repeats; past it the value is cut, so a line stays a line. */
const SHOWN_VALUE_MAX = 100;

/**
 * ` (got "…")` for a text or number value, redacted (redactedValue) and cut to a readable length;
 * nothing for an unset value or a structure. The caller never passes a secret.
 */
export function gotValue(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const text = redactedValue(String(value));
  return ` (got "${text.length > SHOWN_VALUE_MAX ? `${text.slice(0, SHOWN_VALUE_MAX)}…` : text}")`;
}
