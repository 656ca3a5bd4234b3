// Checks the purpose a lookup states (LOOKUP_PURPOSE, LOOKUP_PURPOSE_CATEGORIES) before anything
// else happens: a missing or faulty one is a 400 naming the field, and the lookup is neither sent
// nor recorded, since no lookup took place. A reference must not be personal data: it is kept in
// clear in the trail and searched by, so the identifier itself or an e-mail address is refused.
import {
  PURPOSE_CATEGORY_MAX_LENGTH,
  PURPOSE_REFERENCE_MAX_LENGTH,
  type LookupPurpose,
  type PurposeMode,
} from '../../shared/lookup-purpose';
import type { HttpProblem } from '../http/problem';
import { invalidLookupProblem } from './data-subject-lookups';

/** What the console asks of a lookup's purpose. */
export interface PurposePolicy {
  readonly mode: PurposeMode;
  readonly categories: readonly string[];
}

/** Something shaped like an e-mail address anywhere in the text. */
const EMAIL_LIKE = /[^\s@]+@[^\s@]+\.[^\s@]+/u;

const NOT_PERSONAL =
  'must not be personal data: use the ticket or request id, not the identifier looked up or an e-mail address';

/**
 * The purpose `body` states, null when it states none that is kept, or the 400 that refuses the
 * lookup. `identifier` is the identifier the request names, which a reference must not repeat.
 * With `off`, a stated purpose is ignored: the console does not ask for one.
 */
export function checkPurpose(
  policy: PurposePolicy,
  body: unknown,
  identifier: string | undefined,
): { purpose: LookupPurpose | null } | { problem: HttpProblem } {
  const given =
    typeof body === 'object' && body !== null ? (body as { purpose?: unknown }).purpose : undefined;
  if (policy.mode === 'off') return { purpose: null };
  const fault = (field: string, message: string) => ({
    problem: invalidLookupProblem({ [field]: message }),
  });
  if (given === undefined || given === null) {
    return policy.mode === 'required'
      ? fault('purpose', 'is required: state a category and a reference (a ticket or request id)')
      : { purpose: null };
  }
  if (typeof given !== 'object' || Array.isArray(given)) {
    return fault('purpose', 'must be an object with a category and a reference');
  }
  const { category, reference, ...rest } = given as Record<string, unknown>;
  if (Object.keys(rest).length > 0) {
    return fault('purpose', 'has unknown fields; send category and reference only');
  }
  if (typeof category !== 'string' || category.trim() === '') {
    return fault('purpose.category', 'is required');
  }
  if (category.length > PURPOSE_CATEGORY_MAX_LENGTH || !policy.categories.includes(category)) {
    return fault('purpose.category', `must be one of: ${policy.categories.join(', ')}`);
  }
  if (typeof reference !== 'string' || reference.trim() === '') {
    return fault('purpose.reference', 'is required (a ticket or request id)');
  }
  if (reference.length > PURPOSE_REFERENCE_MAX_LENGTH) {
    return fault(
      'purpose.reference',
      `is too long (at most ${PURPOSE_REFERENCE_MAX_LENGTH} characters)`,
    );
  }
  const kept = reference.trim();
  const asked = identifier?.trim().toLowerCase();
  // Containment only for identifiers long enough not to occur in ticket ids by chance.
  const repeats =
    asked !== undefined &&
    asked !== '' &&
    (kept.toLowerCase() === asked || (asked.length >= 6 && kept.toLowerCase().includes(asked)));
  if (EMAIL_LIKE.test(kept) || repeats) {
    return fault('purpose.reference', NOT_PERSONAL);
  }
  return { purpose: { category, reference: kept } };
}
