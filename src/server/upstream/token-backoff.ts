// How long the console waits before asking a failing token endpoint again: exponential from 1 s,
// capped at 60 s, with "equal jitter" (half the delay fixed, half random) so replicas that failed
// together do not retry together, while the delay still grows. A broken secret then costs the
// token endpoint a handful of requests a minute per replica, not one per page view.

export const TOKEN_BACKOFF = { firstMs: 1_000, capMs: 60_000 } as const;

/** The wait after the `failures`-th failure in a row (1, 2, …); `random` in [0, 1). */
export function tokenBackoffMs(failures: number, random: () => number): number {
  const ceiling = Math.min(TOKEN_BACKOFF.capMs, TOKEN_BACKOFF.firstMs * 2 ** (failures - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
