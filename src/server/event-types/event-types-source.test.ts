// The event-types source across fetches of the same and of a changed list: what the browser is
// answered, and what the kept file (the last good list after a restart) holds.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EventTypesResponseSchema } from '../../shared/event-types';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { HttpProblem } from '../http/problem';
import { AnswerParser, OFF_THREAD_FROM_BYTES } from '../upstream/answer-parser';
import type { UpstreamClient } from '../upstream/upstream-client';
import { PATIENTLY } from '../test-support/deferred';
import { EventTypesSource, KEPT_LIST_BYTES, type EventTypeFilters } from './event-types-source';

const ALL = { modules: [], objectTypes: [] };
const LIST_A = '[{"code":1,"value":"Vendor Added","moduleName":"Vendor Risk"}]';
const LIST_B = '[{"code":1,"value":"Vendor Added"},{"code":2,"value":"Consent Given"}]';

/** A source whose upstream answers `answer.text`, on a clock the test moves, keeping a file. */
function setUp(parser?: AnswerParser) {
  const answer = { text: LIST_A, calls: 0 };
  const clock = { now: Date.parse('2026-03-01T09:00:00Z') };
  const upstream = {
    send: async () => {
      answer.calls += 1;
      return { status: 200, headers: { 'content-type': 'application/json' }, body: answer.text };
    },
  } as unknown as UpstreamClient;
  const file = join(mkdtempSync(join(tmpdir(), 'console-event-types-')), 'event-types.json');
  const source = new EventTypesSource({
    upstream,
    arrayQueryStyle: 'repeat',
    cacheTtlMs: 0,
    now: () => clock.now,
    lastGoodFile: file,
    ...(parser ? { parser } : {}),
  });
  const fetchList = async () =>
    EventTypesResponseSchema.parse(JSON.parse((await source.getJson(ALL)).toString()));
  const kept = async () => {
    await source.flush();
    return EventTypesResponseSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  };
  return { answer, clock, fetchList, kept };
}

describe('EventTypesSource across fetches', () => {
  it('answers an unchanged list with a fresh fetchedAt, and a changed one at once', async () => {
    const { answer, clock, fetchList } = setUp();
    const first = await fetchList();
    clock.now += 30_000;
    const same = await fetchList();
    expect(same.items).toEqual(first.items);
    expect(same.fetchedAt).toBe('2026-03-01T09:00:30.000Z');
    answer.text = LIST_B;
    clock.now += 30_000;
    expect((await fetchList()).items.map((item) => item.value)).toEqual([
      'Vendor Added',
      'Consent Given',
    ]);
    answer.text = LIST_A;
    expect((await fetchList()).items).toEqual(first.items);
    expect(answer.calls).toBe(4);
  });

  it('writes the kept file when the list changes, and an unchanged one every 10 minutes', async () => {
    const { answer, clock, fetchList, kept } = setUp();
    await fetchList();
    expect((await kept()).fetchedAt).toBe('2026-03-01T09:00:00.000Z');
    clock.now += 9 * 60_000;
    await fetchList();
    // Unchanged and not 10 minutes on: the file still says when it was written.
    expect((await kept()).fetchedAt).toBe('2026-03-01T09:00:00.000Z');
    clock.now += 60_000;
    await fetchList();
    expect((await kept()).fetchedAt).toBe('2026-03-01T09:10:00.000Z');
    clock.now += 1_000;
    answer.text = LIST_B;
    await fetchList();
    const changed = await kept();
    expect(changed.fetchedAt).toBe('2026-03-01T09:10:01.000Z');
    expect(changed.items).toHaveLength(2);
  });

  it('reads a large answer off the main thread, the same list and a changed one', async () => {
    const parser = new AnswerParser({ workers: 1 });
    try {
      const { answer, clock, fetchList } = setUp(parser);
      const item = (code: number) => `{"code":${code},"value":"consent.receipt.${code}"}`;
      const count = Math.ceil(OFF_THREAD_FROM_BYTES / item(10_000).length) + 1;
      answer.text = `[${Array.from({ length: count }, (_, i) => item(i)).join(',')}]`;
      const first = await fetchList();
      clock.now += 1_000;
      const same = await fetchList();
      expect(same.items).toEqual(first.items);
      expect(same.fetchedAt).not.toBe(first.fetchedAt);
      answer.text = answer.text.replace('"consent.receipt.0"', '"consent.receipt.zero"');
      expect((await fetchList()).items[0]?.value).toBe('consent.receipt.zero');
    } finally {
      await parser.close();
    }
  });

  it('keeps the newest filtered lists within its memory bound, and the unfiltered list always', async () => {
    // Lists of about 6 MB: the bound holds five filtered ones; the platform then fails.
    const item = (code: number) => `{"code":${code},"value":"consent.receipt.${code}"}`;
    const count = Math.ceil((6 * 1024 * 1024) / item(100_000).length);
    const large = `[${Array.from({ length: count }, (_, i) => item(i)).join(',')}]`;
    const answer = { status: 200, text: large };
    const upstream = {
      send: async () => ({ status: answer.status, headers: {}, body: answer.text }),
    } as unknown as UpstreamClient;
    const source = new EventTypesSource({ upstream, arrayQueryStyle: 'repeat', cacheTtlMs: 0 });
    const filtered = (n: number): EventTypeFilters => ({
      modules: [`Module ${n}`],
      objectTypes: [],
    });
    await source.getJson(ALL);
    for (let n = 1; n <= 8; n += 1) await source.getJson(filtered(n));

    answer.status = 503;
    answer.text = '{"error":"unavailable"}';
    const outcome = async (filters: EventTypeFilters) => {
      try {
        const body = JSON.parse((await source.getJson(filters)).toString());
        return { stale: body.stale?.status, items: body.items.length };
      } catch {
        return 'refused';
      }
    };
    const kept = Math.floor(KEPT_LIST_BYTES / (large.length + 40));
    expect(kept).toBe(5);
    // The unfiltered list, the first fetched, is still served, marked stale (the platform's 503
    // answered as 502 Bad Gateway).
    expect(await outcome(ALL)).toEqual({ stale: 502, items: count });
    for (let n = 8; n > 8 - kept; n -= 1) {
      expect(await outcome(filtered(n))).toEqual({ stale: 502, items: count });
    }
    for (let n = 8 - kept; n >= 1; n -= 1) expect(await outcome(filtered(n))).toBe('refused');
  });
});

describe('EventTypesSource when many different lists are asked for at once', () => {
  /** An upstream that holds each call until the test answers it, noting its query and its time. */
  function heldUpstream() {
    const held: Array<{ query: unknown; timeoutMs: unknown; answer: () => void }> = [];
    const upstream = {
      send: (_operation: unknown, call: { query: unknown; timeoutMs?: number }) =>
        new Promise((resolve) => {
          held.push({
            query: call.query,
            timeoutMs: call.timeoutMs,
            answer: () => resolve({ status: 200, headers: {}, body: LIST_A }),
          });
        }),
    } as unknown as UpstreamClient;
    return { held, upstream };
  }
  const filtered = (n: number): EventTypeFilters => ({ modules: [`Module ${n}`], objectTypes: [] });
  const problemOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
      return 'answered';
    } catch (error) {
      const { problem, headers } = error as HttpProblem;
      return { type: problem.type, status: problem.status, retryAfter: headers['Retry-After'] };
    }
  };

  it('asks the platform for a few at a time, queues a few more, and refuses the rest at once', async () => {
    const { held, upstream } = heldUpstream();
    const source = new EventTypesSource({
      upstream,
      arrayQueryStyle: 'repeat',
      cacheTtlMs: 0,
      loads: { running: 2, waiting: 1 },
    });
    const asked = [1, 2, 3, 4].map((n) => source.getJson(filtered(n)));
    // The same list again shares the load under way rather than taking a turn of its own.
    const again = source.getJson(filtered(1));
    expect(await problemOf(asked[3]!)).toEqual({
      type: PROBLEM_TYPES.consoleBusy,
      status: 503,
      retryAfter: '2',
    });
    expect(held.map((call) => call.query)).toEqual([
      [['modules', 'Module 1']],
      [['modules', 'Module 2']],
    ]);
    held[0]!.answer();
    await vi.waitFor(() => expect(held).toHaveLength(3), PATIENTLY);
    expect(held[2]!.query).toEqual([['modules', 'Module 3']]);
    held[1]!.answer();
    held[2]!.answer();
    for (const answer of [asked[0], asked[1], asked[2], again]) {
      expect(JSON.parse((await answer!).toString()).items).toHaveLength(1);
    }
  });

  it('gives a list that waited for its turn only the rest of its time at the platform', async () => {
    const clock = { now: 0 };
    const { held, upstream } = heldUpstream();
    const source = new EventTypesSource({
      upstream,
      arrayQueryStyle: 'repeat',
      cacheTtlMs: 0,
      timeoutMs: 10_000,
      now: () => clock.now,
      loads: { running: 1, waiting: 1 },
    });
    const first = source.getJson(filtered(1));
    const second = source.getJson(filtered(2));
    await vi.waitFor(() => expect(held).toHaveLength(1), PATIENTLY);
    clock.now = 4_000;
    held[0]!.answer();
    await first;
    await vi.waitFor(() => expect(held).toHaveLength(2), PATIENTLY);
    held[1]!.answer();
    await second;
    expect(held.map((call) => call.timeoutMs)).toEqual([10_000, 6_000]);
  });

  it('refuses a list still waiting for its turn at the timeout, or serves its last good copy', async () => {
    const { held, upstream } = heldUpstream();
    const source = new EventTypesSource({
      upstream,
      arrayQueryStyle: 'repeat',
      cacheTtlMs: 0,
      timeoutMs: 50,
      loads: { running: 1, waiting: 5 },
    });
    const kept = source.getJson(filtered(2));
    await vi.waitFor(() => expect(held).toHaveLength(1), PATIENTLY);
    held[0]!.answer();
    await kept;
    const hogging = source.getJson(filtered(1));
    expect(await problemOf(source.getJson(filtered(3)))).toMatchObject({
      type: PROBLEM_TYPES.consoleBusy,
      status: 503,
    });
    // Filters with a last good list get it, marked stale, instead of the refusal.
    const stale = JSON.parse((await source.getJson(filtered(2))).toString());
    expect(stale.stale).toMatchObject({ status: 503, retryAfterSeconds: 2 });
    expect(stale.items).toHaveLength(1);
    await vi.waitFor(() => expect(held).toHaveLength(2), PATIENTLY);
    held[1]!.answer();
    await hogging;
  });
});
