// Fetchers, query options and the export of the accountability page; query keys are built here.
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { downloadSignedExport } from '../../../lib/signed-export';
import {
  AccountabilityReportSchema,
  type AccountabilityExportFormat,
} from '../../../shared/accountability';

/** The period's bounds as the API takes them; none: the last 30 days. */
export interface PeriodQuery {
  readonly since?: string;
  readonly until?: string;
}

/** Query keys of this feature. */
export const accountabilityKeys = {
  all: ['accountability'] as const,
  report: (period: PeriodQuery) => [...accountabilityKeys.all, 'report', period] as const,
};

function queryString(period: PeriodQuery): string {
  const params = new URLSearchParams();
  if (period.since) params.set('since', period.since);
  if (period.until) params.set('until', period.until);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The report for a period. */
export function accountabilityQueryOptions(period: PeriodQuery) {
  return queryOptions({
    queryKey: accountabilityKeys.report(period),
    queryFn: ({ signal }) =>
      apiRequest(`/api/accountability${queryString(period)}`, AccountabilityReportSchema, {
        signal,
      }),
    // Lookups made meanwhile show up when the page is revisited or refreshed.
    staleTime: 0,
  });
}

/** Saves the report as a signed file, and its detached signature beside it. */
export function useAccountabilityExport() {
  return useMutation({
    mutationFn: ({ format, period }: { format: AccountabilityExportFormat; period: PeriodQuery }) =>
      downloadSignedExport(
        '/api/accountability/export',
        { format, ...period },
        `accountability.${format}`,
      ),
    retry: false,
  });
}
