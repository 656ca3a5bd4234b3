// "Who saw this person": a search by one key (an identifier, a data-subject id, a link token)
// also finds the lookups that showed the same person under another key. Answers that showed
// keys together as one person linked them (shown-identifiers.ts); the search follows those links
// a few steps, within a bound it reports reaching, and says for each result which key matched and
// whether through a link.
import type { AuditRecord, AuditSearchLinks } from '../../../shared/audit-trail';
import type { PersonKeyKind } from '../../../shared/data-subject-contract';
import type { AuditRecordPage, AuditSearch } from './audit-search';

/** Steps from one lookup's person to the next; and most hashes followed. */
const LINK_ROUNDS = 3;
export const LINK_MAX = 64;

/** A search by the hashes of what was typed, widened to the keys linked to them. */
export interface PersonSearch {
  /** Every hash the search compares: typed and linked. */
  readonly hashes: string[];
  /** How many keys were followed, and whether the bound cut the search short. */
  readonly links: AuditSearchLinks;
  /** Says for each record of a page which key matched, and whether through a link. */
  annotate(page: AuditRecordPage): Promise<AuditRecordPage>;
}

export async function personSearch(
  search: Pick<AuditSearch, 'linkedHashes' | 'matchedKeys'>,
  typed: readonly string[],
): Promise<PersonSearch> {
  const { hashes, complete } = await search.linkedHashes(typed, LINK_ROUNDS, LINK_MAX);
  const own = new Set(typed);
  return {
    hashes,
    links: { keys: hashes.length, max: LINK_MAX, complete },
    async annotate(page) {
      const matched = await search.matchedKeys(
        page.items.map((item) => item.id),
        hashes,
      );
      const items = page.items.map((item): AuditRecord => {
        const found = matched.get(item.id);
        if (!found) return item;
        const kindOf = new Map(found.shown.map((key) => [key.hash, key.kind]));
        // The asked key counts only when it is one the search compares. A lookup asks by
        // identifier, or by an id given as one: the kind its answer showed it as wins.
        const asked =
          found.asked !== null && hashes.includes(found.asked)
            ? [{ hash: found.asked, kind: kindOf.get(found.asked) ?? 'identifier' }]
            : [];
        const keys = [...asked, ...found.shown];
        const askedOwn = asked.some((key) => own.has(key.hash));
        const shownOwn = found.shown.some((key) => own.has(key.hash));
        const direct = askedOwn || shownOwn;
        // A direct match names the searched key's kinds only; a linked one, the linked keys'.
        const kinds = new Set<PersonKeyKind>();
        for (const key of keys) {
          if (direct && !own.has(key.hash)) continue;
          if (key.kind === 'identifier' || key.kind === 'subject-id' || key.kind === 'link-token') {
            kinds.add(key.kind);
          }
        }
        return {
          ...item,
          matchedBy: askedOwn ? (shownOwn ? 'both' : 'asked') : shownOwn ? 'shown' : 'linked',
          ...(kinds.size > 0 ? { matchedKeys: [...kinds] } : {}),
          matchedThroughLink: !direct,
        };
      });
      return { ...page, items };
    },
  };
}
