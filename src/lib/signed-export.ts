// Downloads a signed export (the audit trail's, the accountability report): the file, then its
// detached signature fetched by the export's id, both saved side by side as `<file>.sig.json`.
import { AuditExportSignatureSchema, type AuditExportSignature } from '../shared/audit-trail';
import { apiRequest, fetchFile } from './api-client';
import { saveFile } from './csv';

/** What an export produced. */
export interface SignedExportResult {
  readonly fileName: string;
  readonly signatureName: string;
  readonly signature: AuditExportSignature;
}

/** POSTs `body` to `path`, saves the file it answers and the file's detached signature. */
export async function downloadSignedExport(
  path: string,
  body: unknown,
  fallbackName: string,
): Promise<SignedExportResult> {
  const { blob, fileName, headers } = await fetchFile(path, fallbackName, {
    method: 'POST',
    body,
  });
  const id = headers.get('X-Export-Id') ?? '';
  const signature = await apiRequest(
    `/api/audit-trail/exports/${encodeURIComponent(id)}/signature`,
    AuditExportSignatureSchema,
  );
  const signatureName = `${fileName}.sig.json`;
  saveFile(fileName, blob);
  saveFile(
    signatureName,
    new Blob([`${JSON.stringify(signature, null, 2)}\n`], { type: 'application/json' }),
  );
  return { fileName, signatureName, signature };
}
