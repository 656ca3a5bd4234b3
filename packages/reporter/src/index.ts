// A drop-in reporter for integrations of the privacy platform: wraps `fetch`, counts the
// requests per operation template and minute, keeps the rate-limit headers of every 429, and
// sends them to the Privacy API Console every few seconds. It never throws into the host, never
// blocks it (reports are dropped when the console is away or memory is at its bound), and never
// sends an identifier, a body, a query string or a token: only templates, counts and the five
// rate-limit headers leave the process.
// Relative imports name their `.js` file: the built package runs in plain Node, which does not
// guess extensions the way bundlers and tsx do.
import { TEMPLATES } from './templates.js';

/** The five rate-limit headers of a 429, the only headers ever reported. */
export const RATE_LIMIT_HEADERS = [
  'retry-after',
  'ot-ratelimit-event-id',
  'ot-requests-allowed',
  'ot-period',
  'ot-request-made',
] as const;

/** The template of a request that matches no known operation; its path is not kept. */
export const OTHER = '(other)';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export interface ReporterOptions {
  /** The console's address, e.g. `https://console.example.com`. */
  readonly consoleUrl: string;
  /** The integration's reporting key (from the console's Integrations page). */
  readonly key: string;
  /** How often a report is sent (default 5 s). */
  readonly flushIntervalMs?: number;
  /** Most distinct minute × operation counters kept (default 2,000); more are dropped. */
  readonly maxCounters?: number;
  /** Most 429s kept between reports (default 200); more are dropped. */
  readonly maxThrottles?: number;
  /** How long one report may take (default 5 s). */
  readonly timeoutMs?: number;
  /** Counters older than this are dropped rather than resent (default 10 minutes). */
  readonly maxAgeMs?: number;
  /** Extra path templates of operations the built-in list lacks (`{name}` for a parameter). */
  readonly templates?: ReadonlyArray<readonly [method: string, template: string]>;
  /** The fetch used to send reports (default globalThis.fetch). */
  readonly send?: (url: string, init: RequestInit) => Promise<Response>;
  /** The clock (tests). */
  readonly now?: () => number;
  /** Told about a report that could not be delivered; never required. */
  readonly onError?: (reason: string) => void;
}

/** One request as the host saw it. */
export interface ObservedRequest {
  readonly method: string;
  /** The request's URL or path; only its template is kept. */
  readonly url: string;
  readonly status: number;
  /** The answer's headers (only the five rate-limit headers of a 429 are read). */
  readonly headers?: Headers | Record<string, string | undefined>;
  /** How many identical requests this stands for (default 1). */
  readonly count?: number;
}

/** The shape of `fetch` the wrapper takes and gives. */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** What the reporter has done, for the host's own metrics. */
export interface ReporterStats {
  pendingCounters: number;
  pendingThrottles: number;
  reportsSent: number;
  reportsFailed: number;
  /** Counters and 429s dropped: memory bound, too old, or refused by the console. */
  dropped: number;
  /** Why the last report failed (the same words `onError` is told); null after a success. */
  lastError: string | null;
}

export interface Reporter {
  /** Counts one request (or `count` identical ones). Never throws. */
  record(request: ObservedRequest): void;
  /** A fetch that counts every request it makes through `fetchImpl`. */
  wrapFetch(fetchImpl?: FetchLike): FetchLike;
  /** Sends what is pending now; resolves (never rejects) when done. */
  flush(): Promise<void>;
  /**
   * Stops the timer and sends everything recorded before the call, also what was recorded while
   * a report was on its way; resolves (never rejects) when done.
   */
  close(): Promise<void>;
  stats(): ReporterStats;
}

interface Counter {
  minute: number;
  method: string;
  template: string;
  requests: number;
  throttled: number;
}

interface Throttle {
  at: string;
  method: string;
  path: string;
  headers: Record<string, string>;
}

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matches(template: string, actual: string[]): boolean {
  const wanted = segments(template);
  const wildcard = wanted.at(-1) === '*';
  const fixed = wildcard ? wanted.slice(0, -1) : wanted;
  if (wildcard ? actual.length <= fixed.length : actual.length !== fixed.length) return false;
  return fixed.every((segment, index) => /^\{\w+\}$/.test(segment) || actual[index] === segment);
}

/** The path of a URL or path, without query or fragment; '' when unreadable. */
function pathOf(url: string): string {
  try {
    return new URL(url, 'http://reporter.invalid').pathname;
  } catch {
    return '';
  }
}

/**
 * The template `url` belongs to, or {@link OTHER}. A template may match below a prefix (a tenant
 * base path in front of the documented path).
 */
export function templateOf(
  url: string,
  templates: ReadonlyArray<readonly [string, string]> = TEMPLATES,
): string {
  const actual = segments(pathOf(url));
  for (let start = 0; start < Math.max(1, actual.length); start += 1) {
    const tail = actual.slice(start);
    for (const [, template] of templates) if (matches(template, tail)) return template;
  }
  return OTHER;
}

function headerOf(headers: ObservedRequest['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | undefined>;
  const found = Object.keys(record).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : record[found];
}

/** The console's report endpoint, or undefined when `consoleUrl` is not an http(s) address. */
function reportsEndpoint(consoleUrl: unknown): string | undefined {
  try {
    const url = new URL(String(consoleUrl));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return `${url.href.replace(/\/+$/, '')}/api/integrations/reports`;
  } catch {
    return undefined;
  }
}

/**
 * Creates a reporter; its timer does not keep the process alive. Never throws: a missing or
 * unusable `consoleUrl` or `key` turns reporting off, says so through `onError` and `stats()`.
 */
export function createReporter(options: ReporterOptions): Reporter {
  const now = options.now ?? Date.now;
  const interval = options.flushIntervalMs ?? 5_000;
  const maxCounters = options.maxCounters ?? 2_000;
  const maxThrottles = options.maxThrottles ?? 200;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const templates = [...(options.templates ?? []), ...TEMPLATES];
  const endpoint = reportsEndpoint(options.consoleUrl);
  const send = options.send ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
  const warn = (reason: string) => {
    stats.lastError = reason;
    try {
      options.onError?.(reason);
    } catch {
      // The host's handler failing is not the host's request failing.
    }
  };

  let counters = new Map<string, Counter>();
  let throttles: Throttle[] = [];
  let pausedUntil = 0;
  // A missing or unusable address or key (an unset environment variable) turns reporting off
  // rather than throwing at the integration's start: reporting is never worth the host's uptime.
  const misconfigured =
    endpoint === undefined
      ? 'consoleUrl is not an http(s) address; reporting is off'
      : typeof options.key !== 'string' || options.key.trim() === ''
        ? 'no reporting key was given; reporting is off'
        : undefined;
  let disabled = misconfigured !== undefined;
  let inFlight: Promise<void> | undefined;
  const stats: ReporterStats = {
    pendingCounters: 0,
    pendingThrottles: 0,
    reportsSent: 0,
    reportsFailed: 0,
    dropped: 0,
    lastError: null,
  };

  const add = (counter: Counter) => {
    const key = `${counter.minute}|${counter.method}|${counter.template}`;
    const existing = counters.get(key);
    if (existing) {
      existing.requests += counter.requests;
      existing.throttled += counter.throttled;
    } else if (counters.size < maxCounters) {
      counters.set(key, { ...counter });
    } else {
      stats.dropped += 1;
    }
  };

  function record(request: ObservedRequest): void {
    try {
      if (disabled) return;
      const method = String(request.method ?? 'GET').toUpperCase();
      if (!METHODS.has(method)) return;
      const count = Math.max(1, Math.floor(Number(request.count ?? 1)) || 1);
      const template = templateOf(String(request.url ?? ''), templates);
      const at = now();
      const throttled = request.status === 429;
      add({
        minute: Math.floor(at / 60_000) * 60_000,
        method,
        template,
        requests: count,
        throttled: throttled ? count : 0,
      });
      if (!throttled) return;
      if (throttles.length >= maxThrottles) {
        stats.dropped += 1;
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of RATE_LIMIT_HEADERS) {
        const value = headerOf(request.headers, name);
        if (value !== undefined && value.length <= 100) headers[name] = value;
      }
      throttles.push({ at: new Date(at).toISOString(), method, path: template, headers });
    } catch {
      // Counting must never break the host's request.
    }
  }

  async function deliver(): Promise<void> {
    if (disabled || endpoint === undefined || now() < pausedUntil) return;
    const taken = counters;
    const takenThrottles = throttles;
    counters = new Map();
    throttles = [];
    const cutoff = now() - maxAgeMs;
    const minutes = [...taken.values()].filter((counter) => counter.minute >= cutoff);
    stats.dropped += taken.size - minutes.length;
    if (minutes.length === 0 && takenThrottles.length === 0) return;
    // Batches of at most 500 counters and 200 429s: the console's limits.
    const body = JSON.stringify({
      minutes: minutes.slice(0, 500).map((counter) => ({
        minute: new Date(counter.minute).toISOString(),
        method: counter.method,
        path: counter.template,
        requests: counter.requests,
        throttled: counter.throttled,
      })),
      throttles: takenThrottles.slice(0, 200),
    });
    for (const counter of minutes.slice(500)) add(counter);
    let status = 0;
    let unreachable = 'the console could not be reached';
    try {
      const response = await send(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.key}` },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      if (status === 429) {
        const seconds = Number(response.headers.get('retry-after'));
        pausedUntil = now() + (Number.isFinite(seconds) && seconds > 0 ? seconds : 60) * 1_000;
      }
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      status = 0;
      if ((error as { name?: unknown } | null)?.name === 'TimeoutError') {
        unreachable = `the console did not answer within ${timeoutMs} ms`;
      }
    }
    if (status >= 200 && status < 300) {
      stats.reportsSent += 1;
      stats.lastError = null;
      return;
    }
    stats.reportsFailed += 1;
    if (status === 401) {
      // A revoked or wrong key will not start working by itself: stop counting.
      disabled = true;
      counters = new Map();
      throttles = [];
      warn('the console refused the reporting key (401); reporting stopped');
      return;
    }
    if (status === 400 || status === 413) {
      stats.dropped += minutes.length + takenThrottles.length;
      warn(`the console refused a report (${status}); it was dropped`);
      return;
    }
    // The console is away or busy: keep what fits for the next try, within the same bounds.
    for (const counter of minutes) add(counter);
    for (const throttle of takenThrottles) {
      if (throttles.length < maxThrottles) throttles.push(throttle);
      else stats.dropped += 1;
    }
    warn(status === 0 ? unreachable : `the console answered ${status}`);
  }

  function flush(): Promise<void> {
    // One report at a time: a slow console never piles up requests in the host.
    inFlight ??= deliver()
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  if (misconfigured) warn(misconfigured);

  const timer = setInterval(() => void flush(), interval);
  (timer as { unref?: () => void }).unref?.();

  return {
    record,
    wrapFetch(fetchImpl) {
      const inner = (fetchImpl ?? globalThis.fetch) as (
        input: RequestInfo | URL,
        init?: RequestInit,
      ) => Promise<Response>;
      const wrapped = async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await inner(input, init);
        try {
          const request = typeof input === 'object' && 'method' in input ? input : undefined;
          const url =
            typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
          record({
            method: init?.method ?? request?.method ?? 'GET',
            url,
            status: response.status,
            headers: response.headers,
          });
        } catch {
          // Never the host's problem.
        }
        return response;
      };
      return wrapped;
    },
    flush,
    async close() {
      clearInterval(timer);
      // A report on its way carries only what was taken when it started: wait for it, then send
      // what was recorded meanwhile, so nothing recorded before close() is left behind.
      await inFlight;
      await flush();
    },
    stats() {
      return { ...stats, pendingCounters: counters.size, pendingThrottles: throttles.length };
    },
  };
}
