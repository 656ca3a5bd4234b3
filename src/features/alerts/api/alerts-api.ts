// Fetchers, query options and mutations of the alerts page and the early-warning banner; query keys
// are built here only.
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest, getJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
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
const alertKeys = {
  all: ['alerts'] as const,
  forecast: () => [...alertKeys.all, 'forecast'] as const,
  destinations: () => [...alertKeys.all, 'destinations'] as const,
  deliveries: (destinationId: string) => [...alertKeys.all, 'deliveries', destinationId] as const,
};

/** The forecast of every limit, refreshed every `refetchInterval` ms. */
export function forecastQueryOptions(refetchInterval: number | false = 10_000) {
  return queryOptions({
    queryKey: alertKeys.forecast(),
    queryFn: getJson('/api/alerts/forecast', ForecastResponseSchema),
    staleTime: 5_000,
    refetchInterval,
  });
}

export function destinationsQueryOptions() {
  return queryOptions({
    queryKey: alertKeys.destinations(),
    queryFn: getJson('/api/alerts/destinations', DestinationListSchema),
  });
}

/** One destination's delivery log; polled while the page is open so retries show up. */
export function deliveriesQueryOptions(destinationId: string) {
  return queryOptions({
    queryKey: alertKeys.deliveries(destinationId),
    queryFn: getJson(
      `/api/alerts/destinations/${encodeURIComponent(destinationId)}/deliveries`,
      DeliveryListSchema,
    ),
    refetchInterval: 5_000,
  });
}

const afterSuccess = { onlyAfterSuccess: true };

export function useCreateDestination() {
  return useRefreshingMutation(
    (input: CreateDestination) =>
      apiRequest('/api/alerts/destinations', CreatedDestinationSchema, {
        method: 'POST',
        body: input,
      }),
    alertKeys.destinations(),
    afterSuccess,
  );
}

export function useUpdateDestination() {
  return useRefreshingMutation(
    ({ id, change }: { id: string; change: UpdateDestination }) =>
      apiRequest(`/api/alerts/destinations/${encodeURIComponent(id)}`, DestinationSchema, {
        method: 'PATCH',
        body: change,
      }),
    alertKeys.destinations(),
    afterSuccess,
  );
}

export function useDeleteDestination() {
  return useRefreshingMutation(
    (id: string) =>
      apiRequest(`/api/alerts/destinations/${encodeURIComponent(id)}`, z.undefined(), {
        method: 'DELETE',
      }),
    alertKeys.destinations(),
    afterSuccess,
  );
}

/** Sends a test alert; resolves once the first attempt is over, with its delivery. */
export function useSendTest() {
  return useRefreshingMutation(
    (id: string) =>
      apiRequest(`/api/alerts/destinations/${encodeURIComponent(id)}/test`, DeliverySchema, {
        method: 'POST',
      }),
    (id) => alertKeys.deliveries(id),
  );
}

export function useResend() {
  return useRefreshingMutation(
    ({ deliveryId }: { deliveryId: string; destinationId: string }) =>
      apiRequest(
        `/api/alerts/deliveries/${encodeURIComponent(deliveryId)}/resend`,
        DeliverySchema,
        {
          method: 'POST',
        },
      ),
    ({ destinationId }) => alertKeys.deliveries(destinationId),
  );
}

/** Sets the warning threshold of one limit; the forecast is fetched again once it is saved. */
export function useSetThreshold() {
  return useRefreshingMutation(
    ({ ruleId, period, percent }: { ruleId: string; period: string; percent: number }) =>
      apiRequest(
        `/api/alerts/thresholds/${encodeURIComponent(ruleId)}/${encodeURIComponent(period)}`,
        z.undefined(),
        { method: 'PUT', body: { percent } },
      ),
    alertKeys.forecast(),
    afterSuccess,
  );
}
