// Mutations of one connection's demo controls (demo mode, admins): provoke a scenario in that
// connection's built-in mock, or end every block of it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { connectionApiPath } from '../../../shared/connections';
import { DemoOutcomeSchema, type DemoScenario } from '../../../shared/demo-scenarios';
import { rateLimitKeys } from './rate-limits-api';

/** Provokes `scenario`; the incident (if any) arrives through the live stream as well. */
export function useProvokeScenario(connection: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scenario: DemoScenario) =>
      apiRequest(connectionApiPath(connection, '/api/demo-controls'), DemoOutcomeSchema, {
        method: 'POST',
        body: { scenario },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage(connection) }),
  });
}

/** Ends every block in the mock and in the console's governor. */
export function useResetDemo(connection: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(connectionApiPath(connection, '/api/demo-controls/reset'), z.undefined(), {
        method: 'POST',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage(connection) }),
  });
}
