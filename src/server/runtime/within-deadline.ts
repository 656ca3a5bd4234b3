// One way to give a promise a deadline (store pings, Redis PINGs, token checks, incident writes),
// so every such wait clears its timer and none keeps the process alive after the answer came.
//
// Why not Hono's `hono/timeout` middleware on the routes: the time a route can hang on is an
// upstream call, and that call already carries its own deadline in the transport (waiting for a
// pooled connection, the headers and the whole body, UPSTREAM_TIMEOUT_MS) and is aborted when it
// passes, answering a 504 problem+json. A route-wide timeout would answer sooner with a bare
// HTTPException while the upstream call ran on (still counted against the platform's limits), and
// it would cut the live incident stream and streamed audit exports, which are long on purpose.

/**
 * Settles as `work` does if it settles within `ms`; otherwise as `onTimeout` does (return a
 * stand-in value, or throw the error to report). The timer is cleared either way. `work` is not
 * cancelled: a late answer, or a late failure, is ignored.
 */
export async function withinDeadline<T, U = never>(
  work: PromiseLike<T>,
  ms: number,
  onTimeout: () => U | PromiseLike<U>,
): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<U>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
