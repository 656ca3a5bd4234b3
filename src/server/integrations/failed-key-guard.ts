// Wrong reporting keys counted per client address: past a bound in a minute, every report from
// that address is refused before its key is compared or its body read, and the refusal is held
// for a moment before it is sent, so a flood of made-up keys costs the console a header read and
// an idle socket per report, and a client that waits for its answers (as every HTTP client does on
// a connection) can send no more than one a second per connection.
/** The per-address count of failed keys, in this process's memory. */
export interface FailedKeyGuard {
  /** Seconds until `address` may report again; 0 when it may now. */
  refusedFor(address: string): number;
  /**
   * Counts one missing, unknown or revoked key sent from `address`; true when this one reached
   * the bound (the address is refused from now on: worth one log line, not one per report).
   */
  failed(address: string): boolean;
  /**
   * Resolves when a refusal may be sent: after the hold, or at once while the most refusals
   * allowed are already held (so a client that does not wait cannot pile up open requests).
   */
  hold(): Promise<void>;
  /** The bound, as named in the refusal's RateLimit-Policy field. */
  readonly perMinute: number;
}

/** Refusals held at once; more are answered without the pause. */
const MAX_HELD = 200;

const WINDOW_MS = 60_000;
/**
 * Addresses remembered at once: beyond it the oldest window is forgotten, so a flood from many
 * addresses cannot grow the map without end (each of them is still refused at its own bound
 * while remembered).
 */
const MAX_ADDRESSES = 10_000;

/**
 * A fixed one-minute window per address, in memory. Not shared between replicas on purpose: the
 * refusal must cost no network round trip, and a flood spread over replicas is bounded by
 * `perMinute` on each.
 */
export function createFailedKeyGuard(options: {
  readonly perMinute: number;
  readonly now: () => number;
  /** How long a refusal is held before it is sent (0: sent at once). */
  readonly holdMs: number;
  /** Waits `ms` (a timer; injectable so tests need not wait). */
  readonly pause?: (ms: number) => Promise<void>;
}): FailedKeyGuard {
  const windows = new Map<string, { start: number; failures: number }>();
  const pause =
    options.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let held = 0;
  const current = (address: string) => {
    const window = windows.get(address);
    if (!window) return undefined;
    if (options.now() - window.start >= WINDOW_MS) {
      windows.delete(address);
      return undefined;
    }
    return window;
  };
  return {
    perMinute: options.perMinute,
    async hold() {
      if (options.holdMs <= 0 || held >= MAX_HELD) return;
      held += 1;
      try {
        await pause(options.holdMs);
      } finally {
        held -= 1;
      }
    },
    refusedFor(address) {
      const window = current(address);
      if (!window || window.failures < options.perMinute) return 0;
      return Math.max(1, Math.ceil((window.start + WINDOW_MS - options.now()) / 1_000));
    },
    failed(address) {
      const window = current(address);
      if (window) {
        window.failures += 1;
        return window.failures === options.perMinute;
      }
      if (windows.size >= MAX_ADDRESSES) {
        const oldest = windows.keys().next().value;
        if (oldest !== undefined) windows.delete(oldest);
      }
      windows.set(address, { start: options.now(), failures: 1 });
      return options.perMinute === 1;
    },
  };
}
