// The one list of mock upstream handlers, shared by demo mode, unit tests and the standalone server.
import type { HttpHandler } from 'msw';
import type { MockState } from '../state';
import { createTokenHandler } from './auth';
import { createDataSubjectHandlers } from './data-subjects';
import { createEventTypesHandler } from './event-types';

/**
 * Builds the handlers of the upstream API over `state`. Paths match any origin (`*` prefix), so
 * the caller's base URL does not matter. Mock-only control routes are not included: they are not
 * part of the upstream API and live on the standalone server only.
 */
export function createHandlers(state: MockState): HttpHandler[] {
  // The hottest operation first: MSW tries handlers in order.
  return [
    createEventTypesHandler(state),
    createTokenHandler(state),
    ...createDataSubjectHandlers(state),
  ];
}
