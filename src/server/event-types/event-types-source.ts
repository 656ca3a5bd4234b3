// Event types from the upstream, validated, serialised once, cached briefly and coalesced; the last
// good list is kept (and written to DATA_DIR) so it can still be served, marked stale, while the
// account is blocked or the platform fails: reference data must stay usable. Every answer is read
// and checked in full; the file is rewritten when the checked list changed, not on every fetch.
// Lists are kept as bytes (Buffers), outside the JavaScript heap, and what is kept is bounded in
// bytes as well as in lists: an answer may be 16 MB (UPSTREAM_MAX_ANSWER_BYTES), and fifty kept
// lists of that size would be 800 MB. For the same reason only a few different lists are fetched
// at once (LOADS).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  EVENT_TYPES_OPERATION,
  EventTypesResponseReader,
  type StaleEventTypes,
} from '../../shared/event-types';
import { PROBLEM_TYPES } from '../../shared/problem';
import { HttpProblem } from '../http/problem';
import { AnswerDeadlineExceeded, type AnswerParser } from '../upstream/answer-parser';
import { BoundedLoads, LoadRefused } from '../upstream/bounded-loads';
import {
  checkedEventTypesBody,
  type EventTypesBody,
  type JsonBytes,
} from '../upstream/event-types-json';
import { CoalescingCache } from '../upstream/coalescing-cache';
import type { UpstreamClient } from '../upstream/upstream-client';
import {
  invalidUpstreamAnswerProblem,
  problemForUpstreamAnswer,
  problemForUpstreamFailure,
} from '../upstream/upstream-problems';

/** The two documented filters, values already validated, deduplicated and sorted. */
export interface EventTypeFilters {
  modules: string[];
  objectTypes: string[];
}

export interface EventTypesSourceOptions {
  upstream: UpstreamClient;
  arrayQueryStyle: 'repeat' | 'comma';
  cacheTtlMs: number;
  now?: () => number;
  /**
   * Where the last good unfiltered list is kept across restarts (a file under DATA_DIR); unset
   * keeps it in memory only.
   */
  lastGoodFile?: string;
  /** Told when the last good list cannot be written (logged by the caller). */
  onPersistError?: (error: unknown) => void;
  /**
   * Reads large answers off the main thread (answer-parser.ts), within `timeoutMs` of the call's
   * start; without it every answer is read on the main thread.
   */
  parser?: AnswerParser;
  /**
   * The call's whole deadline, from the request's arrival: a turn among the loads (LOADS), the
   * upstream call and reading its answer (UPSTREAM_TIMEOUT_MS).
   */
  timeoutMs?: number;
  /** How many loads run at once and wait for a turn; LOADS unless a test says otherwise. */
  loads?: { running: number; waiting: number };
}

/**
 * Distinct lists fetched from the platform at once, and queued for a turn (identical requests share
 * one load, and cached lists need none). Each running load holds an answer of up to
 * UPSTREAM_MAX_ANSWER_BYTES until its body is built, so four of the largest stay within the
 * console's memory. A waiting request holds only its connection, so the queue is long: a thousand
 * requests for different lists at once (docs/product.md: the token stampede) are all answered,
 * four at a time. A request past the queue, or still waiting at its deadline, gets 503 with
 * Retry-After, or the last good list for the same filters marked stale.
 */
const LOADS = { running: 4, waiting: 1_000 };

/** Filtered lists whose last good answer is remembered; the unfiltered one always is. */
const MAX_LAST_GOOD = 50;
/**
 * Bytes of filtered lists remembered as last good answers, and bytes of answers kept by the cache
 * (the two share memory: a cached body and its last good list are one buffer). 32 MB keeps
 * twenty-four lists of 10,000 event types (1.3 MB each) or two of the largest accepted answer.
 */
export const KEPT_LIST_BYTES = 32 * 1024 * 1024;
const UNFILTERED_KEY = JSON.stringify([[], []]);
/**
 * How far the kept file's `fetchedAt` may fall behind while the list does not change: after a
 * restart it is the time a stale list says it is from, so it is refreshed now and then.
 */
const REWRITE_UNCHANGED_AFTER_MS = 10 * 60_000;

/** A list as last read: the answer's body, the checked items in it (a view), and when. */
interface GoodList extends EventTypesBody {
  readonly fetchedAt: string;
}

/** Query pairs for the filters in the configured wire style (the platform's documentation, docs/platform-contract.md, does not say). */
function filterQuery(
  filters: EventTypeFilters,
  style: 'repeat' | 'comma',
): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const name of ['modules', 'objectTypes'] as const) {
    const values = filters[name];
    if (values.length === 0) continue;
    if (style === 'comma') pairs.push([name, values.join(',')]);
    else for (const value of values) pairs.push([name, value]);
  }
  return pairs;
}

/**
 * Loads event types. The answer is kept as the finished JSON of `{ items, fetchedAt }` so a cache
 * hit costs no parsing or serialising.
 */
export class EventTypesSource {
  readonly #options: EventTypesSourceOptions;
  readonly #now: () => number;
  readonly #cache: CoalescingCache<JsonBytes>;
  readonly #loads: BoundedLoads;
  /** The last good list per filter key, newest last. */
  readonly #lastGood = new Map<string, GoodList>();
  #persisted: Promise<JsonBytes | undefined> | undefined;
  /** When the kept file's list was fetched (ms), or undefined before this process wrote it. */
  #writtenFetchedAt: number | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(options: EventTypesSourceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#cache = new CoalescingCache<JsonBytes>({
      ttlMs: options.cacheTtlMs,
      maxEntries: 200,
      maxSize: { limit: KEPT_LIST_BYTES, sizeOf: (body) => body.byteLength },
      now: this.#now,
    });
    this.#loads = new BoundedLoads({ ...(options.loads ?? LOADS), now: this.#now });
  }

  /**
   * The JSON body of `GET /api/event-types` for `filters`, UTF-8. When the platform cannot be asked
   * (a rate-limit block, an upstream failure) and a good list for the same filters was fetched
   * before, that list is answered with a `stale` member saying why; otherwise throws HttpProblem.
   */
  async getJson(filters: EventTypeFilters): Promise<JsonBytes> {
    const key = JSON.stringify([filters.modules, filters.objectTypes]);
    try {
      return await this.#cache.get(key, () => this.#load(key, filters));
    } catch (error) {
      const problem = error instanceof HttpProblem ? error : problemForUpstreamFailure(error);
      if (!problem || !servesStale(problem)) throw error;
      const remembered = this.#lastGood.get(key);
      const lastGood = remembered
        ? remembered.body
        : key === UNFILTERED_KEY
          ? await this.#readPersisted()
          : undefined;
      if (lastGood === undefined) throw error;
      return withStale(lastGood, problem);
    }
  }

  /** Waits for the last good list to be on disk (tests, shutdown). */
  flush(): Promise<void> {
    return this.#writing;
  }

  #remember(key: string, list: GoodList): void {
    // Two copies of one checked list compare in microseconds; writing it costs a disk write.
    const changed = this.#lastGood.get(key)?.items.equals(list.items) !== true;
    this.#lastGood.delete(key);
    this.#lastGood.set(key, list);
    this.#keepWithinBounds();
    const file = this.#options.lastGoodFile;
    if (key !== UNFILTERED_KEY || !file) return;
    const fetchedAt = Date.parse(list.fetchedAt);
    const fresh =
      this.#writtenFetchedAt !== undefined &&
      fetchedAt - this.#writtenFetchedAt < REWRITE_UNCHANGED_AFTER_MS;
    if (!changed && fresh) return;
    this.#writtenFetchedAt = fetchedAt;
    this.#persisted = Promise.resolve(list.body);
    // One write at a time, through a temporary file: a crash mid-write leaves the old list.
    this.#writing = this.#writing
      .then(async () => {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(`${file}.tmp`, list.body, { mode: 0o600 });
        await rename(`${file}.tmp`, file);
      })
      .catch((error: unknown) => this.#options.onPersistError?.(error));
  }

  /**
   * Forgets the oldest filtered lists while more than MAX_LAST_GOOD of them, or more than
   * KEPT_LIST_BYTES of them, are kept. The unfiltered list is always kept: it is the one a
   * restart keeps too, and the one the explorer opens with.
   */
  #keepWithinBounds(): void {
    let count = 0;
    let bytes = 0;
    for (const [key, list] of this.#lastGood) {
      if (key === UNFILTERED_KEY) continue;
      count += 1;
      bytes += list.body.byteLength;
    }
    for (const [key, list] of this.#lastGood) {
      if (count <= MAX_LAST_GOOD && bytes <= KEPT_LIST_BYTES) return;
      if (key === UNFILTERED_KEY) continue;
      this.#lastGood.delete(key);
      count -= 1;
      bytes -= list.body.byteLength;
    }
  }

  /** The list a previous process kept, checked like an upstream answer; undefined if unusable. */
  #readPersisted(): Promise<JsonBytes | undefined> {
    const file = this.#options.lastGoodFile;
    if (!file) return Promise.resolve(undefined);
    this.#persisted ??= readFile(file).then(
      (bytes) => {
        try {
          const parsed = EventTypesResponseReader.safeParse(JSON.parse(bytes.toString()));
          return parsed.success && parsed.data.stale === undefined ? bytes : undefined;
        } catch {
          return undefined;
        }
      },
      () => undefined,
    );
    return this.#persisted;
  }

  /** Fetches and reads the list for `filters` once it has a turn among the loads. */
  async #load(key: string, filters: EventTypeFilters): Promise<JsonBytes> {
    const deadlineAt = this.#now() + (this.#options.timeoutMs ?? 10_000);
    try {
      return await this.#loads.run(() => this.#fetch(key, filters, deadlineAt), deadlineAt);
    } catch (error) {
      if (error instanceof LoadRefused) throw busyProblem(error);
      throw error;
    }
  }

  async #fetch(key: string, filters: EventTypeFilters, deadlineAt: number): Promise<JsonBytes> {
    const response = await this.#options.upstream.send(EVENT_TYPES_OPERATION, {
      query: filterQuery(filters, this.#options.arrayQueryStyle),
      // A list that waited for its turn has only the rest of its time for the platform.
      timeoutMs: Math.max(1, deadlineAt - this.#now()),
    });
    if (response.status !== 200) throw problemForUpstreamAnswer(response, this.#now());
    // Fakes in tests may give only text; the HTTP transport always gives the bytes.
    const bytes = response.bytes ?? Buffer.from(response.body);
    const fetchedAt = new Date(this.#now()).toISOString();
    const body = await readBody(this.#options.parser, bytes, fetchedAt, deadlineAt);
    if (body === undefined) throw invalidUpstreamAnswerProblem();
    const list = { ...body, fetchedAt };
    this.#remember(key, list);
    return list.body;
  }
}

/** The console's own refusal: too many distinct lists asked for at once (see LOADS). */
function busyProblem(refused: LoadRefused): HttpProblem {
  return new HttpProblem(
    {
      type: PROBLEM_TYPES.consoleBusy,
      title: 'The console is fetching as many lists as it allows at once',
      status: 503,
      detail:
        refused.reason === 'queue-full'
          ? 'Too many different event-type lists were asked for at once. The platform is not involved; try again in a moment.'
          : 'This list waited for its turn among other lists being fetched and did not get one within the configured timeout (UPSTREAM_TIMEOUT_MS). The platform is not involved; try again in a moment.',
      retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
    },
    { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  );
}

/** Long enough for the loads ahead to finish: a 16 MB answer is read in well under a second. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * The body for the answer `bytes` (off the main thread when a parser is given, within the call's
 * deadline), or undefined when the answer is not a list of event types.
 */
async function readBody(
  parser: AnswerParser | undefined,
  bytes: Buffer,
  fetchedAt: string,
  deadlineAt: number,
): Promise<EventTypesBody | undefined> {
  try {
    return parser
      ? await parser.read(bytes, fetchedAt, deadlineAt)
      : checkedEventTypesBody(bytes, fetchedAt);
  } catch (error) {
    if (!(error instanceof AnswerDeadlineExceeded)) throw error;
    throw new HttpProblem({
      type: PROBLEM_TYPES.upstreamTimeout,
      title: 'The privacy platform’s answer could not be read in time',
      status: 504,
      detail:
        'Several large answers arrived at once and this one was not read within the configured timeout (UPSTREAM_TIMEOUT_MS); it was dropped. Try again in a moment.',
    });
  }
}

/** Whether the last good list may stand in: the platform blocked or failed, not a bad request. */
function servesStale(problem: HttpProblem): boolean {
  const { status, upstreamStatus } = problem.problem;
  return status === 429 || status >= 500 || (upstreamStatus !== undefined && upstreamStatus >= 500);
}

/** `json` (an `{ items, fetchedAt }` object) with a `stale` member describing `problem`. */
function withStale(json: JsonBytes, problem: HttpProblem): JsonBytes {
  const { title, status, retryAfterSeconds, incidentId } = problem.problem;
  const stale: StaleEventTypes = {
    reason: title,
    status,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(incidentId === undefined ? {} : { incidentId }),
  };
  return Buffer.concat([Buffer.from(`{"stale":${JSON.stringify(stale)},`), json.subarray(1)]);
}
