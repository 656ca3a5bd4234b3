// Event types from the upstream, validated, serialised once, cached briefly and coalesced.
import { EVENT_TYPES_OPERATION } from '../../shared/event-types';
import { CanonicalTextMemo, eventTypesResponseJson } from './event-types-json';
import { CoalescingCache } from './coalescing-cache';
import type { UpstreamClient } from './upstream-client';
import { invalidUpstreamAnswerProblem, problemForUpstreamAnswer } from './upstream-problems';

/** The two documented filters, values already validated, deduplicated and sorted. */
export interface EventTypeFilters {
  modules: string[];
  objectTypes: string[];
}

export interface EventTypesSourceOptions {
  upstream: UpstreamClient;
  arrayQueryStyle: 'repeat' | 'comma';
  cacheTtlMs: number;
  /** Share one upstream call among concurrent identical requests (default true). */
  coalesce?: boolean;
  now?: () => number;
}

/** Query pairs for the filters in the configured wire style (upstream-api.md §4.1 does not say). */
export function filterQuery(
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
 * Loads event types. The answer is kept as the finished JSON text of `{ items, fetchedAt }` so a
 * cache hit costs no parsing or serialising.
 */
export class EventTypesSource {
  readonly #options: EventTypesSourceOptions;
  readonly #now: () => number;
  readonly #cache: CoalescingCache<string>;
  /** 4 M characters: the unfiltered list of several thousand event types and many filtered ones. */
  readonly #canonical = new CanonicalTextMemo(4 * 1024 * 1024);

  constructor(options: EventTypesSourceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#cache = new CoalescingCache<string>({
      ttlMs: options.cacheTtlMs,
      coalesce: options.coalesce ?? true,
      maxEntries: 200,
      now: this.#now,
    });
  }

  /** The JSON body of `GET /api/event-types` for `filters`; throws HttpProblem on failure. */
  getJson(filters: EventTypeFilters): Promise<string> {
    const key = JSON.stringify([filters.modules, filters.objectTypes]);
    return this.#cache.get(key, () => this.#load(key, filters));
  }

  async #load(key: string, filters: EventTypeFilters): Promise<string> {
    const response = await this.#options.upstream.send(EVENT_TYPES_OPERATION, {
      query: filterQuery(filters, this.#options.arrayQueryStyle),
    });
    if (response.status !== 200) throw problemForUpstreamAnswer(response, this.#now());
    const json = eventTypesResponseJson(response.body, new Date(this.#now()).toISOString(), {
      memo: this.#canonical,
      key,
    });
    if (json === undefined) throw invalidUpstreamAnswerProblem();
    return json;
  }
}
