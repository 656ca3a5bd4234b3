// Mutations of the demo controls (demo mode, admins): provoke a scenario in the built-in mock, or
// end every block.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { DemoOutcomeSchema, type DemoScenario } from '../../../shared/demo-scenarios';
import { rateLimitKeys } from './rate-limits-api';

/** Provokes `scenario`; the incident (if any) arrives through the live stream as well. */
export function useProvokeScenario() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scenario: DemoScenario) =>
      apiRequest('/api/demo-controls', DemoOutcomeSchema, { method: 'POST', body: { scenario } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage() }),
  });
}

/** Ends every block in the mock and in the console's governor. */
export function useResetDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/demo-controls/reset', z.undefined(), { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage() }),
  });
}
