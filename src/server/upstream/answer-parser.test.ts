// Large event-types answers arriving together: the event loop keeps turning while they are read
// (so /healthz and every other request are answered), and an answer that cannot be read by its
// request's deadline is dropped, queued or running, so nothing is worked on for a request that
// has already been answered.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_NICENESS } from './background-thread';
import { AnswerDeadlineExceeded, AnswerParser, OFF_THREAD_FROM_BYTES } from './answer-parser';
import { EventTypesSource } from '../event-types/event-types-source';
import type { UpstreamClient } from './upstream-client';

/** An event-types answer of about `bytes`, small objects as the platform sends them. */
function largeAnswer(bytes: number): string {
  const item = (code: number) => ({
    code,
    value: `consent.receipt.event.${code}`,
    objectTypeName: 'Consent receipt',
    moduleName: 'Consent',
  });
  const count = Math.ceil(bytes / JSON.stringify(item(100_000)).length);
  return JSON.stringify(Array.from({ length: count }, (_, index) => item(index)));
}

const ANSWER = largeAnswer(8 * 1024 * 1024);
const AT = '2026-01-02T03:04:05.000Z';

function sourceAnswering(text: string, parser?: AnswerParser) {
  const upstream = {
    send: async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: text,
    }),
  } as unknown as UpstreamClient;
  return new EventTypesSource({
    upstream,
    arrayQueryStyle: 'repeat',
    cacheTtlMs: 0,
    timeoutMs: 30_000,
    ...(parser ? { parser } : {}),
  });
}

/**
 * Counts the turns of the event loop on which a large answer was being read: a task that runs once
 * per turn (setImmediate, no timer) and looks at the parser. An answer read on the main thread
 * holds the loop until it is done, so no other task ever sees it in progress; one read elsewhere
 * is seen by the next turn after it starts, however fast or slow the machine is.
 */
function countTurnsWhileReading(reader: AnswerParser) {
  let turns = 0;
  let stopped = false;
  const turn = () => {
    if (stopped) return;
    if (reader.load().running > 0) turns += 1;
    setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop(): number {
      stopped = true;
      return turns;
    },
  };
}

let parser: AnswerParser | undefined;
afterEach(() => parser?.close());

describe('reading large answers', () => {
  it('keeps the event loop turning while several are read at once', async () => {
    parser = new AnswerParser({ workers: 1 });
    const source = sourceAnswering(ANSWER, parser);
    // The worker's start is not what is measured.
    await source.getJson({ modules: ['warm-up'], objectTypes: [] });
    const loop = countTurnsWhileReading(parser);
    const lists = await Promise.all(
      ['A', 'B', 'C', 'D'].map((module) => source.getJson({ modules: [module], objectTypes: [] })),
    );
    const turns = loop.stop();
    for (const json of lists) {
      expect(JSON.parse(json.toString()).items.length).toBeGreaterThan(50_000);
    }
    // The worker's next answer starts as the last one's result is taken in, and the loop turns
    // before that answer's own result can be: at least one turn saw each of the four being read.
    // How long the reads take and how soon /healthz answers meanwhile is the bench's business
    // (scenario large-answers), not this test's.
    expect(turns).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('drops answers that cannot be read by their deadline, queued or running', async () => {
    // A clock that stands still: every read has 50 ms from now, however loaded the machine.
    parser = new AnswerParser({ workers: 1, now: () => 0 });
    expect(Buffer.byteLength(ANSWER)).toBeGreaterThan(OFF_THREAD_FROM_BYTES);
    const deadline = 50;
    const reads = Array.from({ length: 4 }, () =>
      parser!.read(Buffer.from(ANSWER), AT, deadline).then(
        () => 'read',
        (error: unknown) => (error instanceof AnswerDeadlineExceeded ? 'dropped' : 'failed'),
      ),
    );
    expect(parser.load()).toEqual({ running: 1, queued: 3 });
    expect(await Promise.all(reads)).toEqual(['dropped', 'dropped', 'dropped', 'dropped']);
    // Nothing is still being worked on for them.
    expect(parser.load()).toEqual({ running: 0, queued: 0 });
    // And the parser still reads the next answer.
    const next = await parser.read(Buffer.from(ANSWER), AT, 30_000);
    expect(JSON.parse(next!.items.toString()).length).toBeGreaterThan(50_000);
  }, 30_000);

  it('moves an answer to the worker without emptying memory the answer shares with others', async () => {
    parser = new AnswerParser({ workers: 1 });
    // An answer read in one chunk can be a view into a larger buffer that holds other data too.
    const answer = Buffer.from(ANSWER);
    const shared = Buffer.alloc(answer.length + 16, 'x');
    answer.copy(shared, 16);
    const view = shared.subarray(16);
    const list = await parser.read(view, AT, Date.now() + 30_000);
    expect(JSON.parse(list!.items.toString())).toEqual(JSON.parse(ANSWER));
    // The larger buffer is still whole: its first bytes and the answer in it read as before.
    expect(shared.byteLength).toBe(answer.length + 16);
    expect(shared.subarray(0, 16).toString()).toBe('x'.repeat(16));
    expect(view.equals(answer)).toBe(true);
  }, 30_000);

  it('builds the whole body on the worker, with the checked items inside it', async () => {
    parser = new AnswerParser({ workers: 1 });
    const list = await parser.read(Buffer.from(ANSWER), AT, Date.now() + 30_000);
    expect(JSON.parse(list!.body.toString())).toEqual({ items: JSON.parse(ANSWER), fetchedAt: AT });
    // The items are the body's own memory, where the body has them.
    expect(list!.items.buffer).toBe(list!.body.buffer);
    expect(list!.body.indexOf(list!.items)).toBe(list!.items.byteOffset - list!.body.byteOffset);
    // Not a list: nothing to build.
    const refused = await parser.read(Buffer.from(`{"items":${ANSWER}}`), AT, Date.now() + 30_000);
    expect(refused).toBeUndefined();
  }, 30_000);

  it.runIf(process.platform === 'linux')(
    'reads on a thread of background priority, and leaves the event loop’s alone',
    async () => {
      /** The niceness of each of this process's threads, by thread id (proc(5): field 19). */
      const niceness = () =>
        new Map(
          readdirSync('/proc/self/task').map((id) => {
            const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
            return [Number(id), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
          }),
        );
      const before = niceness();
      parser = new AnswerParser({ workers: 1 });
      await parser.read(Buffer.from(ANSWER), AT, Date.now() + 30_000);
      const lowered = [...niceness()].filter(
        ([id, nice]) => nice === BACKGROUND_NICENESS && before.get(id) !== BACKGROUND_NICENESS,
      );
      expect(lowered).toHaveLength(1); // the worker's thread
      expect(niceness().get(process.pid)).toBe(before.get(process.pid)); // the event loop's
    },
    30_000,
  );
});
