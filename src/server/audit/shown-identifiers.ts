// Which data subjects an answer showed: walks any JSON answer (the platform's slices with
// `content`, bare lists, single records, linked identity groups with members) and collects the
// string values of identifier-bearing fields, whatever the answer's exact shape. The walk is
// bounded, so a huge or hostile answer costs a fixed amount of work at most.

/** Bounds of the walk. */
export const SHOWN_LIMITS = {
  /** JSON values visited at most. */
  maxNodes: 200_000,
  /** Nesting followed at most. */
  maxDepth: 32,
  /** Distinct identifiers kept at most. */
  maxIdentifiers: 10_000,
  /** Longer strings are not identifiers the console would send (and are not hashed). */
  maxLength: 1_024,
} as const;

/**
 * Field names that carry data-subject identifiers: `identifier`, `identifiers`, and any name
 * ending in `Identifier(s)` (`primaryDataSubjectIdentifier`, `memberIdentifiers`,
 * `primaryIdentifiers`…). `identifierType` and the like are not identifiers.
 */
export function isIdentifierField(name: string): boolean {
  return /^identifiers?$/i.test(name) || /[a-z]Identifiers?$/.test(name);
}

/** What an answer showed. */
export interface ShownSubjects {
  /** Distinct identifiers as they appeared (hash them before keeping). */
  readonly identifiers: string[];
  /** Records in the answer: a slice's `content` length, a list's length, 1 for one object. */
  readonly recordCount: number;
  /** True when a bound stopped the walk early: the identifiers may be incomplete. */
  readonly truncated: boolean;
}

/** How many records an answer holds. */
export function countRecords(answer: unknown): number {
  if (Array.isArray(answer)) return answer.length;
  if (typeof answer === 'object' && answer !== null) {
    const content = (answer as { content?: unknown }).content;
    if (Array.isArray(content)) return content.length;
    return 1;
  }
  return 0;
}

/** Collects the identifiers `answer` shows. */
export function shownSubjects(answer: unknown): ShownSubjects {
  const found = new Set<string>();
  let nodes = 0;
  let truncated = false;
  const take = (value: unknown) => {
    if (typeof value === 'string') {
      const text = value.trim();
      if (text !== '' && text.length <= SHOWN_LIMITS.maxLength) {
        if (found.size < SHOWN_LIMITS.maxIdentifiers) found.add(text);
        else truncated = true;
      }
    } else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string') take(item);
    }
  };
  // Iterative, so depth costs no stack.
  const stack: Array<[unknown, number]> = [[answer, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > SHOWN_LIMITS.maxNodes) {
      truncated = true;
      break;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= SHOWN_LIMITS.maxDepth) {
      truncated = true;
      continue;
    }
    if (Array.isArray(value)) {
      // Never more queued than the walk may still visit.
      const room = Math.max(0, SHOWN_LIMITS.maxNodes - nodes - stack.length);
      if (value.length > room) truncated = true;
      for (let index = Math.min(value.length, room) - 1; index >= 0; index -= 1) {
        stack.push([value[index], depth + 1]);
      }
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      if (isIdentifierField(key)) take(child);
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return { identifiers: [...found], recordCount: countRecords(answer), truncated };
}
