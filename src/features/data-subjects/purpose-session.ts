// The purpose of the investigation under way, kept for the tab's session (sessionStorage) so a
// reload or a visit to the audit page does not ask for it again. Storage, not memory alone: the
// reference is a ticket or request id, never personal data (the BFF refuses one that looks like an
// e-mail address or repeats the identifier looked up), and the tab forgets it when it closes. It
// is kept with the username it was stated by, so whoever signs in next in this tab states their own.
import { LookupPurposeSchema, type LookupPurpose } from '../../shared/lookup-purpose';

const KEY = 'privacy-console.lookup-purpose';

/** The purpose `user` stated in this tab, if it names a category still offered. */
export function loadPurpose(
  user: string | undefined,
  categories: readonly string[],
): LookupPurpose | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as {
      user?: unknown;
      purpose?: unknown;
    } | null;
    if (!kept || user === undefined || kept.user !== user) return null;
    const parsed = LookupPurposeSchema.safeParse(kept.purpose);
    return parsed.success && categories.includes(parsed.data.category) ? parsed.data : null;
  } catch {
    // Storage disabled or garbled: the bar asks again.
    return null;
  }
}

/** Keeps `purpose` for `user` in this tab. */
export function savePurpose(user: string | undefined, purpose: LookupPurpose): void {
  if (user === undefined) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ user, purpose }));
  } catch {
    // Storage disabled: the purpose lasts as long as the page.
  }
}
