// One connection's card when its windows cannot be read (its Redis slot away or hanging): the card
// says so and keeps its blocks and platform state, and the reason goes to the operator only.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  OVERVIEW_READ_TIMEOUT_MS,
  readConnectionOverview,
  type OverviewSource,
} from './connection-overview';

afterEach(() => {
  vi.useRealTimers();
});

const source = (usage: () => Promise<never>): OverviewSource => ({
  name: 'uat',
  label: 'UAT',
  colour: 'green',
  tier: 'sandbox',
  governor: { usage, blockStates: () => [] },
  governorMode: () => 'fallback',
  lastTokenFailure: () => undefined,
});

describe('readConnectionOverview', () => {
  it('answers a card without limits when the windows fail, and tells the operator why', async () => {
    const heard: unknown[] = [];
    const failing = source(() => Promise.reject(new Error('ECONNREFUSED redis.internal:6379')));
    const card = await readConnectionOverview(failing, (error) => heard.push(error));
    expect(card).toMatchObject({ name: 'uat', limits: null, governor: 'fallback', blocks: [] });
    expect(card.problem).toMatch(/could not be read/);
    expect(JSON.stringify(card)).not.toContain('redis.internal');
    expect(heard).toHaveLength(1);
  });

  it('answers a card without limits when the windows do not answer within the deadline', async () => {
    vi.useFakeTimers();
    const hanging = source(() => new Promise<never>(() => {}));
    const pending = readConnectionOverview(hanging, () => {});
    await vi.advanceTimersByTimeAsync(OVERVIEW_READ_TIMEOUT_MS);
    expect((await pending).limits).toBeNull();
  });
});
