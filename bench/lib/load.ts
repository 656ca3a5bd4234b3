// A load run with autocannon, reduced to the figures the report needs.
import autocannon from 'autocannon';

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds?: number;
  /** Total requests instead of a duration. */
  amount?: number;
  headers?: Record<string, string>;
}

/** Runs one autocannon load and returns its throughput and latency. */
export async function runLoad({
  url,
  connections,
  durationSeconds,
  amount,
  headers,
}: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    ...(amount ? { amount } : { duration: durationSeconds ?? 5 }),
    headers: headers ?? {},
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The p-th percentile (0-100) of some numbers, nearest-rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(0, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[rank] ?? 0;
}
