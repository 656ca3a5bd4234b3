// Large JSON answers sent gzip-compressed to clients that accept it. The demo's 10,000 event types
// are 1.32 MB of JSON and 137 KB gzipped: a privacy admin on a VPN or an office link waits for
// the list on every first visit, and the browser unpacks it as it arrives.
//
// Compressed once per body, in zlib's thread pool rather than on the event loop: a cached list is
// the same bytes for every user until the cache refreshes, so it is compressed once however many
// browsers ask for it, and the copy goes when the body does (a WeakMap). Hono's `compress`
// middleware would compress every answer again, as a stream. gzip only: every browser and HTTP
// client offers it; Brotli would be smaller still, but browsers offer it to secure origins only
// (HTTPS, or localhost), and one encoding keeps one copy per body.
//
// Only for bodies that hold no secret and echo nothing a request sent (the event-types list, and
// the rate-limits page's limits, usage, forecast and account-wide view, Planning's policies): a
// compressed answer that holds both leaks the secret to someone who can choose the echo (BREACH).
// Those are built afresh per request, so each is compressed per request: 5 to 7 KB, a fraction of
// a millisecond.
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

/** Below this, compressing saves less than the time it takes (one packet carries it anyway). */
export const GZIP_MIN_BYTES = 1024;

const gzipInPool = promisify(gzip);
/** Each body's compressed copy, or undefined when compressing it failed (it is then sent as it is). */
const compressedCopies = new WeakMap<Buffer, Promise<Buffer<ArrayBuffer> | undefined>>();

function compressedOnce(body: Buffer): Promise<Buffer<ArrayBuffer> | undefined> {
  let copy = compressedCopies.get(body);
  if (!copy) {
    // zlib writes its output into memory of its own, never a SharedArrayBuffer.
    copy = gzipInPool(body).then(
      (bytes) => bytes as Buffer<ArrayBuffer>,
      () => undefined,
    );
    compressedCopies.set(body, copy);
  }
  return copy;
}

/** Whether the request's Accept-Encoding takes gzip (listed, with a q above 0). */
function acceptsGzip(c: Context): boolean {
  return (
    accepts(c, { header: 'Accept-Encoding', supports: ['gzip'], default: 'identity' }) === 'gzip'
  );
}

/**
 * The answer `body` (JSON) with `headers`: gzip-compressed when the client accepts it and the
 * body is at least GZIP_MIN_BYTES. `Vary: Accept-Encoding` either way, so a cache on the way
 * keeps one copy per encoding.
 */
export async function jsonAnswer(
  c: Context,
  body: Buffer<ArrayBuffer>,
  headers: Record<string, string>,
): Promise<Response> {
  const varied = { ...headers, Vary: 'Accept-Encoding' };
  const copy =
    body.byteLength >= GZIP_MIN_BYTES && acceptsGzip(c) ? await compressedOnce(body) : undefined;
  return copy
    ? c.body(copy, 200, { ...varied, 'Content-Encoding': 'gzip' })
    : c.body(body, 200, varied);
}

/**
 * `value` as a JSON answer through jsonAnswer, with `headers` besides its Content-Type: for an
 * answer built per request. Only for a body that holds no secret and echoes nothing the request
 * sent (see the top of this file).
 */
export function jsonValueAnswer(
  c: Context,
  value: unknown,
  headers: Record<string, string>,
): Promise<Response> {
  return jsonAnswer(c, Buffer.from(JSON.stringify(value)), {
    'Content-Type': 'application/json; charset=utf-8',
    ...headers,
  });
}
