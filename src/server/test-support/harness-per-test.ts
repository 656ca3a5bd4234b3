// Route tests start a fresh BFF harness per test; this closes every one a test started after it.
import { afterEach } from 'vitest';
import { startBffHarness, type BffHarness, type HarnessOptions } from './bff-harness';

/**
 * Registers an `afterEach` that closes the harnesses the test started; returns the starter, which
 * takes the options of `startBffHarness`.
 */
export function harnessPerTest(): (options?: HarnessOptions) => Promise<BffHarness> {
  const started: BffHarness[] = [];
  afterEach(async () => {
    for (const harness of started.splice(0).reverse()) await harness.close();
  });
  return async (options = {}) => {
    const harness = await startBffHarness(options);
    started.push(harness);
    return harness;
  };
}
