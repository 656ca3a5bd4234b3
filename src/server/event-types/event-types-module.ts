// The event-types area: the activity-log event types, cached, coalesced and kept on disk as the
// last good list; large answers are read on a worker thread, so /healthz and every other request
// stay answered while they are (docs/architecture.md, "Large answers").
import type { AreaModule } from '../runtime/area-module';
import type { Config } from '../config/config';
import type { Logger } from '../observability/logger';
import { AnswerParser } from '../upstream/answer-parser';
import type { UpstreamClient } from '../upstream/upstream-client';
import { eventTypesRoutes } from './event-types-routes';
import { EventTypesSource } from './event-types-source';

export interface EventTypesAreaDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  readonly upstream: UpstreamClient;
  /** Where the last good list survives a restart (index.ts: under DATA_DIR). */
  readonly lastGoodFile?: string | undefined;
}

export interface EventTypesArea extends AreaModule {
  readonly source: EventTypesSource;
}

export function createEventTypesArea(deps: EventTypesAreaDeps): EventTypesArea {
  const { config, logger } = deps;
  const parser = new AnswerParser();
  const source = new EventTypesSource({
    upstream: deps.upstream,
    parser,
    timeoutMs: config.upstream.timeoutMs,
    arrayQueryStyle: config.upstream.arrayQueryStyle,
    cacheTtlMs: config.eventTypesCacheSeconds * 1000,
    now: deps.now,
    ...(deps.lastGoodFile ? { lastGoodFile: deps.lastGoodFile } : {}),
    onPersistError: (error) =>
      logger.warn({ err: error }, 'could not keep the last good event-types list on disk'),
  });
  return {
    source,
    routes: [
      {
        path: '/api/event-types',
        app: eventTypesRoutes(source, config.upstream.arrayQueryStyle),
      },
    ],
    start() {},
    stop: () => parser.close(),
  };
}
