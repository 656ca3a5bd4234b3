// The chosen operation in the URL (`?operation=v4-details`), so a link opens the right form. Only
// the operation: parameter values, the identifier above all, never go into the URL.
import type { DataSubjectOperation } from '../../shared/data-subject-operations';

/** The operation `params` names, or the catalog's first. */
export function operationFromParams(
  params: URLSearchParams,
  operations: readonly DataSubjectOperation[],
): DataSubjectOperation | undefined {
  const id = params.get('operation');
  return operations.find((operation) => operation.id === id) ?? operations[0];
}
