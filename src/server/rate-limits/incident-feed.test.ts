// The feed that merges every replica's incident changes for this replica's live streams: changes
// arrive in stream-id order however the notifications and local writes interleave, none twice.
import { describe, expect, it } from 'vitest';
import type { Incident } from '../../shared/incident';
import { createLogger } from '../observability/logger';
import { IncidentFeed } from './incident-feed';
import { IncidentHub } from './incident-hub';

function incident(seq: number, key = `k-${seq}`): Incident {
  return {
    key,
    eventId: null,
    seq,
    firstSeen: '2025-01-06T09:00:00.000Z',
    lastSeen: '2025-01-06T09:00:00.000Z',
    hits: 1,
    period: 'MINUTE',
    requestsAllowed: null,
    requestsMade: null,
    retryAfterSeconds: 60,
    blockedUntil: '2025-01-06T09:01:00.000Z',
    ruleId: 'account-minute',
    scope: 'account',
    operation: 'event-types',
    flags: [],
    headers: {},
  };
}

function setup(startSeq = 0) {
  /** The store's committed changes, by stream id. */
  const committed: Incident[] = [];
  let reads = 0;
  const hub = new IncidentHub();
  const feed = new IncidentFeed({
    hub,
    startSeq,
    logger: createLogger('silent'),
    read: async (after, limit) => {
      reads += 1;
      return committed.filter((i) => i.seq > after).slice(0, limit);
    },
  });
  hub.routeThrough((i) => feed.offer(i));
  const delivered: number[] = [];
  hub.subscribe((i) => delivered.push(i.seq));
  return { hub, feed, committed, delivered, reads: () => reads };
}

describe('IncidentFeed', () => {
  it('delivers this replica’s next change at once, without reading the store', () => {
    const { hub, delivered, reads } = setup(4);
    hub.publish(incident(5));
    hub.publish(incident(6));
    expect(delivered).toEqual([5, 6]);
    expect(reads()).toBe(0);
  });

  it('reads what another replica committed in between, so nothing is skipped', async () => {
    const { hub, feed, committed, delivered } = setup(4);
    committed.push(incident(5), incident(6));
    // This replica's own change 6 arrives before the notification of the other replica's 5.
    hub.publish(incident(6));
    await feed.catchUp();
    feed.announce(5);
    await feed.catchUp();
    expect(delivered).toEqual([5, 6]);
  });

  it('catches up on a notification, once however many arrive together', async () => {
    const { feed, committed, delivered, reads } = setup(0);
    committed.push(incident(1), incident(2), incident(3));
    feed.announce(1);
    feed.announce(2);
    feed.announce(3);
    await feed.catchUp();
    expect(delivered).toEqual([1, 2, 3]);
    expect(reads()).toBeLessThanOrEqual(3);
    feed.announce(2);
    await feed.catchUp();
    expect(delivered).toEqual([1, 2, 3]);
  });

  it('lets observers (the governor) see every delivered change without counting as a stream', () => {
    const { hub } = setup(0);
    const seen: number[] = [];
    hub.observe((i) => seen.push(i.seq));
    hub.publish(incident(1));
    expect(seen).toEqual([1]);
    expect(hub.size).toBe(1);
  });
});
