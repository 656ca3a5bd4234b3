// Fetchers, query options and mutations of the audit page; query keys are built here only.
// Searching by identifier is a mutation: the identifier must not become a cache key. Exports are
// downloaded as files with their detached signature beside them.
import { infiniteQueryOptions, queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest, getJson } from '../../../lib/api-client';
import { downloadSignedExport, type SignedExportResult } from '../../../lib/signed-export';
import {
  AuditIntegritySchema,
  AuditPageSchema,
  AuditSearchPageSchema,
  type AuditExportFilters,
  type AuditExportFormat,
  type AuditPage,
  type AuditSearchPage,
} from '../../../shared/audit-trail';
import * as z from 'zod/mini';
import { auditQueryString, type AuditFilters } from '../audit-url-state';
import { changesQueryString, type ChangeFilters } from '../changes-url-state';
import type { AdminChangeExportRequest } from '../../../shared/admin-changes';

type AdminChangeExportFilters = NonNullable<AdminChangeExportRequest['filters']>;

/** Query keys of this feature. */
export const auditKeys = {
  all: ['audit-trail'] as const,
  list: (filters: AuditFilters) => [...auditKeys.all, 'list', filters] as const,
  integrity: () => [...auditKeys.all, 'integrity'] as const,
  changes: (filters: ChangeFilters) => [...auditKeys.all, 'changes', filters] as const,
};

/** The trail, newest first, one page at a time. */
export function auditTrailQueryOptions(filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: auditKeys.list(filters),
    queryFn: ({ signal, pageParam }): Promise<AuditPage> =>
      apiRequest(`/api/audit-trail${auditQueryString(filters, pageParam)}`, AuditPageSchema, {
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Lookups made in another tab show up when the page is revisited or refreshed.
    staleTime: 0,
  });
}

/** When the chain was last verified, and the retention. */
export function auditIntegrityQueryOptions() {
  return queryOptions({
    queryKey: auditKeys.integrity(),
    queryFn: getJson('/api/audit-trail/integrity', AuditIntegritySchema),
    staleTime: 0,
  });
}

const VerificationSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  entries: z.int(),
  brokenAt: z.nullable(z.int()),
  detail: z.string(),
});

/** Walks the chain now. */
export function useVerifyChain() {
  return useMutation({
    mutationFn: () =>
      apiRequest('/api/audit-trail/verify', VerificationSchema, { method: 'POST', body: {} }),
    retry: false,
  });
}

/** Finds the lookups that asked for or showed one identifier; it travels in the body. */
function searchAuditTrail(identifier: string, cursor?: string): Promise<AuditSearchPage> {
  return apiRequest('/api/audit-trail/search', AuditSearchPageSchema, {
    method: 'POST',
    body: { identifier, ...(cursor ? { cursor } : {}) },
  });
}

export function useAuditSearch() {
  return useMutation({
    mutationFn: ({ identifier, cursor }: { identifier: string; cursor?: string }) =>
      searchAuditTrail(identifier, cursor),
    retry: false,
  });
}

/** The API filters of an export: the same meaning as the list's query. */
export function exportFilters(filters: AuditFilters): AuditExportFilters {
  return Object.fromEntries(new URLSearchParams(auditQueryString(filters).slice(1)));
}

/** What an export produced. */
export type AuditExportResult = SignedExportResult;

/** The API filters of a changes export: the same meaning as the changes list's query. */
export function changeExportFilters(filters: ChangeFilters): AdminChangeExportFilters {
  return Object.fromEntries(new URLSearchParams(changesQueryString(filters).slice(1)));
}

/** What an export holds: a search's lookups, the filtered lookups, or the filtered changes. */
export type AuditExportSubject =
  { identifier: string } | { filters: AuditExportFilters } | { changes: AdminChangeExportFilters };

/**
 * Exports a search (`identifier`), the filtered lookups or the filtered administrative changes as
 * a file, then fetches its detached signature and saves it beside it as `<file>.sig.json`.
 */
function exportAuditTrail(
  request: { format: AuditExportFormat } & AuditExportSubject,
): Promise<AuditExportResult> {
  if ('changes' in request) {
    return downloadSignedExport(
      '/api/audit-trail/changes/export',
      { format: request.format, filters: request.changes },
      `audit-changes.${request.format}`,
    );
  }
  return downloadSignedExport('/api/audit-trail/export', request, `audit-trail.${request.format}`);
}

export function useAuditExport() {
  return useMutation({ mutationFn: exportAuditTrail, retry: false });
}
