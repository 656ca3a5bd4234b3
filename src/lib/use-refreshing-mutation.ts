// A change made through the BFF, after which the lists it touched are fetched again: the pattern
// of every admin form (create, edit, delete, rotate), written once.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A mutation that refreshes the queries under `refresh` (a key, or the key for its variables) once
 * it is over: after success only with `onlyAfterSuccess`, otherwise after a failure too (a failed
 * change may still have happened, or the list may have changed meanwhile).
 */
export function useRefreshingMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  refresh: QueryKey | ((variables: TVariables) => QueryKey),
  { onlyAfterSuccess = false }: { onlyAfterSuccess?: boolean } = {},
) {
  const queryClient = useQueryClient();
  const invalidate = (variables: TVariables) =>
    queryClient.invalidateQueries({
      queryKey: typeof refresh === 'function' ? refresh(variables) : refresh,
    });
  return useMutation({
    mutationFn,
    onSuccess: (_data, variables) => (onlyAfterSuccess ? invalidate(variables) : undefined),
    onSettled: (_data, _error, variables) => (onlyAfterSuccess ? undefined : invalidate(variables)),
  });
}
