// The console's mode, tier and support facts (`GET /api/meta`) under one query key for the whole
// SPA: they change only when the console restarts, so every page shares one fetch.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ConsoleMetaSchema } from '../shared/console-meta';
import { getJson } from './api-client';

/** The one query key of `GET /api/meta`. */
export const consoleMetaQueryKey = ['console-meta'] as const;

/** The path of the console's meta data. */
export const CONSOLE_META_PATH = '/api/meta';

/** Query options for the console's meta data. */
export function consoleMetaQueryOptions() {
  return queryOptions({
    queryKey: consoleMetaQueryKey,
    queryFn: getJson(CONSOLE_META_PATH, ConsoleMetaSchema),
    staleTime: Infinity,
  });
}

/** Mode, tier and the facts the support text quotes. */
export function useConsoleMeta() {
  return useQuery(consoleMetaQueryOptions());
}

/** Demo or live mode (`undefined` while loading): the demo hints show in demo mode only. */
export function useConsoleMode() {
  return useQuery({ ...consoleMetaQueryOptions(), select: (meta) => meta.mode });
}

/**
 * Whether a lookup must state a purpose, and the categories offered (`undefined` while loading).
 * A console that does not say asks for none.
 */
export function useLookupPurposePolicy() {
  return useQuery({
    ...consoleMetaQueryOptions(),
    select: (meta) => meta.lookupPurpose ?? { mode: 'off' as const, categories: [] },
  });
}
