// Fetchers, query options and mutations of the alerts page and the early-warning banner; query keys
// are built here only.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import {
  CreatedDestinationSchema,
  DeliveryListSchema,
  DeliverySchema,
  DestinationListSchema,
  DestinationSchema,
  ForecastResponseSchema,
  type CreateDestination,
  type UpdateDestination,
} from '../../../shared/alerts';

/** Query keys of this feature. */
export const alertKeys = {
  all: ['alerts'] as const,
  forecast: () => [...alertKeys.all, 'forecast'] as const,
  destinations: () => [...alertKeys.all, 'destinations'] as const,
  deliveries: (destinationId: string) => [...alertKeys.all, 'deliveries', destinationId] as const,
};

/** The forecast of every limit, refreshed every `refetchInterval` ms. */
export function forecastQueryOptions(refetchInterval: number | false = 10_000) {
  return queryOptions({
    queryKey: alertKeys.forecast(),
    queryFn: ({ signal }) => apiRequest('/api/alerts/forecast', ForecastResponseSchema, { signal }),
    staleTime: 5_000,
    refetchInterval,
  });
}

export function destinationsQueryOptions() {
  return queryOptions({
    queryKey: alertKeys.destinations(),
    queryFn: ({ signal }) =>
      apiRequest('/api/alerts/destinations', DestinationListSchema, { signal }),
  });
}

/** One destination's delivery log; polled while the page is open so retries show up. */
export function deliveriesQueryOptions(destinationId: string) {
  return queryOptions({
    queryKey: alertKeys.deliveries(destinationId),
    queryFn: ({ signal }) =>
      apiRequest(
        `/api/alerts/destinations/${encodeURIComponent(destinationId)}/deliveries`,
        DeliveryListSchema,
        { signal },
      ),
    refetchInterval: 5_000,
  });
}

export function useCreateDestination() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateDestination) =>
      apiRequest('/api/alerts/destinations', CreatedDestinationSchema, {
        method: 'POST',
        body: input,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.destinations() }),
  });
}

export function useUpdateDestination() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: UpdateDestination }) =>
      apiRequest(`/api/alerts/destinations/${encodeURIComponent(id)}`, DestinationSchema, {
        method: 'PATCH',
        body: change,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.destinations() }),
  });
}

export function useDeleteDestination() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/alerts/destinations/${encodeURIComponent(id)}`, z.undefined(), {
        method: 'DELETE',
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.destinations() }),
  });
}

/** Sends a test alert; resolves once the first attempt is over, with its delivery. */
export function useSendTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/alerts/destinations/${encodeURIComponent(id)}/test`, DeliverySchema, {
        method: 'POST',
      }),
    onSettled: (_, __, id) => client.invalidateQueries({ queryKey: alertKeys.deliveries(id) }),
  });
}

export function useResend() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ deliveryId }: { deliveryId: string; destinationId: string }) =>
      apiRequest(
        `/api/alerts/deliveries/${encodeURIComponent(deliveryId)}/resend`,
        DeliverySchema,
        {
          method: 'POST',
        },
      ),
    onSettled: (_, __, { destinationId }) =>
      client.invalidateQueries({ queryKey: alertKeys.deliveries(destinationId) }),
  });
}

export function useSetThreshold() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      ruleId,
      period,
      percent,
    }: {
      ruleId: string;
      period: string;
      percent: number;
    }) =>
      apiRequest(
        `/api/alerts/thresholds/${encodeURIComponent(ruleId)}/${encodeURIComponent(period)}`,
        z.undefined(),
        { method: 'PUT', body: { percent } },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.forecast() }),
  });
}
