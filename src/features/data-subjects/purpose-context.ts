// The purpose in force on the data-subjects page, for every lookup made under it: the form's, the
// next page of an answer, and the legacy comparison (useLookup reads it, so none can forget it).
import { createContext, useContext } from 'react';
import type { LookupPurpose } from '../../shared/lookup-purpose';

/** The purpose each lookup states; null: none (LOOKUP_PURPOSE off, or optional and left empty). */
export const LookupPurposeContext = createContext<LookupPurpose | null>(null);

/** The purpose lookups made here state. */
export function useLookupPurpose(): LookupPurpose | null {
  return useContext(LookupPurposeContext);
}
