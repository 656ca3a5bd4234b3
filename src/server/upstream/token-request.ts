// The token request's body in either form encoding (docs/platform-contract.md, "The token
// request"): `multipart/form-data` as the vendor's OAuth token document declares it, or
// `application/x-www-form-urlencoded` as RFC 6749 §4.4.2 requires of standard servers.
import { randomBytes } from 'node:crypto';

/** How the token request's fields are encoded (`OAUTH_TOKEN_ENCODING`). */
export type TokenEncoding = 'multipart' | 'form';

/** The content type each encoding is sent as (multipart's boundary added per request). */
export const TOKEN_ENCODING_MEDIA_TYPE: Record<TokenEncoding, string> = {
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
};

/** The encoding a token endpoint that refused one with 415 is tried with instead. */
export function otherEncoding(encoding: TokenEncoding): TokenEncoding {
  return encoding === 'multipart' ? 'form' : 'multipart';
}

/** A request body and the Content-Type header that describes it. */
export interface EncodedForm {
  readonly contentType: string;
  readonly body: string;
}

/**
 * `fields` as RFC 7578 multipart/form-data: one part per field, no filename, values as UTF-8
 * text. The boundary is random and checked against the values, so no value can end a part early.
 */
function multipart(fields: ReadonlyArray<readonly [string, string]>): EncodedForm {
  let boundary: string;
  do {
    boundary = `----console-form-${randomBytes(16).toString('hex')}`;
  } while (fields.some(([, value]) => value.includes(boundary)));
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    contentType: `${TOKEN_ENCODING_MEDIA_TYPE.multipart}; boundary=${boundary}`,
    body: `${parts.join('')}--${boundary}--\r\n`,
  };
}

/** Encodes the token request's `fields` (plain ASCII names) in `encoding`. */
export function encodeTokenForm(
  fields: ReadonlyArray<readonly [string, string]>,
  encoding: TokenEncoding,
): EncodedForm {
  if (encoding === 'multipart') return multipart(fields);
  return {
    contentType: TOKEN_ENCODING_MEDIA_TYPE.form,
    body: new URLSearchParams(fields.map(([name, value]) => [name, value])).toString(),
  };
}
