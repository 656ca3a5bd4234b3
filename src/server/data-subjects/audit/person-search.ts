// "Who saw this person": a search by one key (an identifier, a data-subject id, a link token)
// also finds the lookups that showed the same person under another key. Answers that showed
// keys together as one person linked them (shown-identifiers.ts); the search follows those links
// a few steps, within a bound, and says for each result which key matched and whether through a
// link.
import type { AuditRecord } from '../../../shared/audit-trail';
import type { AuditRecordPage, AuditStore } from './audit-store';

/** Steps from one lookup's person to the next; and most hashes followed. */
const LINK_ROUNDS = 3;
const LINK_MAX = 64;

/** A search by the hashes of what was typed, widened to the keys linked to them. */
export interface PersonSearch {
  /** Every hash the search compares: typed and linked. */
  readonly hashes: string[];
  /** Says for each record of a page which key matched, and whether through a link. */
  annotate(page: AuditRecordPage): Promise<AuditRecordPage>;
}

export async function personSearch(
  store: AuditStore,
  typed: readonly string[],
): Promise<PersonSearch> {
  const hashes = await store.linkedHashes(typed, LINK_ROUNDS, LINK_MAX);
  const own = new Set(typed);
  return {
    hashes,
    async annotate(page) {
      const matched = await store.matchedKeys(
        page.items.map((item) => item.id),
        hashes,
      );
      const items = page.items.map((item): AuditRecord => {
        const found = matched.get(item.id);
        if (!found) return item;
        const askedMatch = found.asked !== null && hashes.includes(found.asked);
        const kinds = new Set<NonNullable<AuditRecord['matchedKeys']>[number]>();
        // A lookup asks by identifier (or, for some operations, by an id given as one).
        if (askedMatch) kinds.add('identifier');
        for (const key of found.shown) {
          if (key.kind === 'identifier' || key.kind === 'subject-id' || key.kind === 'link-token') {
            kinds.add(key.kind);
          }
        }
        const direct =
          (askedMatch && own.has(found.asked!)) || found.shown.some((key) => own.has(key.hash));
        return {
          ...item,
          ...(kinds.size > 0 ? { matchedKeys: [...kinds] } : {}),
          matchedThroughLink: !direct,
        };
      });
      return { ...page, items };
    },
  };
}
