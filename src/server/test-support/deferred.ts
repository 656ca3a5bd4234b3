// A promise with its resolve and reject in hand, for tests that decide when a load finishes.
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Options for `vi.waitFor` while a test waits for held work to start: its 1 s default is a
 * deadline a loaded machine's event loop overran, so here it only bounds a hang.
 */
export const PATIENTLY = { timeout: 10_000, interval: 20 } as const;
