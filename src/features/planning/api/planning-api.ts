// The Planning page's API, one connection's (`/api/connections/{connection}/planning`): the
// policies a what-if starts from, a replay (a person's action, so a mutation), the readiness
// report, and both as files. Every query key names the connection: two connections' answers are
// cached apart.
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest, fetchFile, getJson } from '../../../lib/api-client';
import { saveFile } from '../../../lib/csv';
import {
  MigrationReportSchema,
  PlanningPoliciesSchema,
  WhatIfResultSchema,
  type PlanningPeriod,
  type WhatIfRequest,
  type WhatIfResult,
} from '../../../shared/planning';
import { whatIfCsv, whatIfMarkdown } from '../../../shared/what-if-report';
import { connectionApiPath } from '../../../shared/connections';

/** `path` of the planning API of `connection`. */
const planningPath = (connection: string, path: string) =>
  connectionApiPath(connection, `/api/planning${path}`);

export function planningPoliciesQueryOptions(connection: string) {
  return queryOptions({
    queryKey: ['planning', connection, 'policies'],
    queryFn: getJson(planningPath(connection, '/policies'), PlanningPoliciesSchema),
    staleTime: 60_000,
  });
}

export function migrationQueryOptions(connection: string, period: PlanningPeriod) {
  return queryOptions({
    queryKey: ['planning', connection, 'migration', period],
    queryFn: getJson(
      planningPath(connection, `/migration?period=${period}`),
      MigrationReportSchema,
    ),
    staleTime: 30_000,
  });
}

export function useWhatIf(connection: string) {
  return useMutation({
    mutationKey: ['planning', connection, 'what-if'],
    mutationFn: (request: WhatIfRequest) =>
      apiRequest(planningPath(connection, '/what-if'), WhatIfResultSchema, {
        method: 'POST',
        body: request,
      }),
    retry: false,
  });
}

export type ExportFormat = 'csv' | 'markdown';

/** Saves the replay shown, `result`, as a file stamped with its run's id and time. */
export function downloadWhatIf(result: WhatIfResult, format: ExportFormat): void {
  // Built from the result on screen: the same run, never a replay of a later window.
  const stamp = result.generatedAt.replace(/[:.]/g, '-');
  const name = `what-if-${result.connection.name}-${result.period}-${stamp}`;
  if (format === 'csv') {
    saveFile(
      `${name}.csv`,
      new Blob(['\uFEFF', whatIfCsv(result)], { type: 'text/csv;charset=utf-8' }),
    );
  } else {
    saveFile(
      `${name}.md`,
      new Blob([whatIfMarkdown(result)], { type: 'text/markdown;charset=utf-8' }),
    );
  }
}

/** Downloads the readiness report of `connection` over `period` as a file. */
export async function downloadMigration(
  connection: string,
  period: PlanningPeriod,
  format: ExportFormat,
) {
  const file = await fetchFile(
    planningPath(connection, `/migration?period=${period}&format=${format}`),
    `v4-readiness-${connection}.${format}`,
  );
  saveFile(file.fileName, file.blob);
}
