// The one Cache-Control of every answer the console makes that no cache may keep: personal data,
// sessions, the audit trail, problems, readiness, metrics and HTML pages alike.
//
// `no-store` alone, not `private, no-store`: no-store already forbids every cache, the browser's
// and any shared one, to store any part of the answer (RFC 9111 §5.2.2.5), so `private`, which
// only keeps shared caches out, adds nothing a cache honouring the header would do differently.

/** `Cache-Control: no-store`, to pass or spread as an answer's headers. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;
