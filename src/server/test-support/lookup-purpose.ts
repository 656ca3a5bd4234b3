// The purpose the tests' lookups state: LOOKUP_PURPOSE is `required` by default, so a lookup that
// is not about the purpose itself names one, as the data-subjects page does.
import type { LookupPurpose } from '../../shared/lookup-purpose';

/** A ticket id under a default category: what an investigation states. */
export const TEST_PURPOSE: LookupPurpose = { category: 'support ticket', reference: 'TEST-1' };

/** A lookup's body with the tests' purpose, unless it states its own or is not an object. */
export function withPurpose(body: unknown): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? { purpose: TEST_PURPOSE, ...body }
    : body;
}
