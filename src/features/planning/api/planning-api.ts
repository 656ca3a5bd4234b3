// The Planning page's API: the policies a what-if starts from, a replay (a person's action, so a
// mutation), the readiness report, and both as files.
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

export function planningPoliciesQueryOptions() {
  return queryOptions({
    queryKey: ['planning', 'policies'],
    queryFn: getJson('/api/planning/policies', PlanningPoliciesSchema),
    staleTime: 60_000,
  });
}

export function migrationQueryOptions(period: PlanningPeriod) {
  return queryOptions({
    queryKey: ['planning', 'migration', period],
    queryFn: getJson(`/api/planning/migration?period=${period}`, MigrationReportSchema),
    staleTime: 30_000,
  });
}

export function useWhatIf() {
  return useMutation({
    mutationFn: (request: WhatIfRequest) =>
      apiRequest('/api/planning/what-if', WhatIfResultSchema, { method: 'POST', body: request }),
    retry: false,
  });
}

export type ExportFormat = 'csv' | 'markdown';

/** Saves the replay shown, `result`, as a file stamped with its run's id and time. */
export function downloadWhatIf(result: WhatIfResult, format: ExportFormat): void {
  // Built from the result on screen: the same run, never a replay of a later window.
  const stamp = result.generatedAt.replace(/[:.]/g, '-');
  if (format === 'csv') {
    saveFile(
      `what-if-${result.period}-${stamp}.csv`,
      new Blob(['\uFEFF', whatIfCsv(result)], { type: 'text/csv;charset=utf-8' }),
    );
  } else {
    saveFile(
      `what-if-${result.period}-${stamp}.md`,
      new Blob([whatIfMarkdown(result)], { type: 'text/markdown;charset=utf-8' }),
    );
  }
}

/** Downloads the readiness report of `period` as a file. */
export async function downloadMigration(period: PlanningPeriod, format: ExportFormat) {
  const file = await fetchFile(
    `/api/planning/migration?period=${period}&format=${format}`,
    `v4-readiness.${format}`,
  );
  saveFile(file.fileName, file.blob);
}
