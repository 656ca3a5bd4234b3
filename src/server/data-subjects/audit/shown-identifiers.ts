// Which data subjects an answer showed: walks any JSON answer (the platform's slices with
// `content`, bare lists, single records, linked identity groups with members) and collects the
// string values of the fields the platform contract marks as a person's keys, whatever the
// answer's exact shape. The walk is bounded, so a huge or hostile answer costs a fixed amount of
// work at most.
import { canonicalIdentifier } from '../../../shared/audit-trail';
import { personKeyKindOf, type PersonKeyKind } from '../../../shared/data-subject-contract';
import { fieldSchema } from '../../../shared/schema-fields';

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
 * Field names that carry data-subject identifiers in an answer the contract does not describe:
 * `identifier`, `identifiers`, and any name ending in `Identifier(s)`
 * (`primaryDataSubjectIdentifier`, `memberIdentifiers`…). `identifierType` and the like are not
 * identifiers.
 */
export function isIdentifierField(name: string): boolean {
  return /^identifiers?$/i.test(name) || /[a-z]Identifiers?$/.test(name);
}

/** One person key an answer showed. */
export interface ShownKey {
  /** As it appeared (hash it before keeping). */
  readonly value: string;
  readonly kind: PersonKeyKind;
  /**
   * Which person of the answer it belongs to, from 0: keys shown in one record, or in records that
   * share a key, have one number (the trail links them).
   */
  readonly person: number;
}

/** What an answer showed. */
export interface ShownSubjects {
  /** Distinct identifiers as they appeared (hash them before keeping). */
  readonly identifiers: string[];
  /** The same values with their kind and person. */
  readonly keys: ShownKey[];
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

/** Groups of keys that are one person: union-find over the values' canonical forms. */
class People {
  readonly #parent: number[] = [];
  readonly #byValue = new Map<string, number>();

  #find(group: number): number {
    let root = group;
    while (this.#parent[root] !== root) root = this.#parent[root]!;
    this.#parent[group] = root;
    return root;
  }

  /** Puts the values of one record into one group, joined with any group already holding one. */
  add(values: readonly string[]): void {
    const group = this.#parent.length;
    this.#parent.push(group);
    for (const value of values) {
      const key = canonicalIdentifier(value);
      const other = this.#byValue.get(key);
      if (other === undefined) this.#byValue.set(key, group);
      else this.#parent[this.#find(other)] = this.#find(group);
    }
  }

  /** The person number of `value`, numbered 0, 1, 2… in order of first appearance. */
  numbering(): (value: string) => number {
    const numbers = new Map<number, number>();
    return (value) => {
      const root = this.#find(this.#byValue.get(canonicalIdentifier(value))!);
      let number = numbers.get(root);
      if (number === undefined) {
        number = numbers.size;
        numbers.set(root, number);
      }
      return number;
    };
  }
}

/**
 * Collects the person keys `answer` shows. With the operation's answer `schema` (the platform
 * contract), only the fields it marks are taken, with their kind, and keys of one record are
 * linked as one person. A field merely named like an identifier is not a key there: an upstream
 * field such as `sourceIdentifier: "web-form"` holds the same value for many people, and linking
 * through it would merge them. Without a schema (an answer the contract does not describe), fields
 * named like identifiers are taken, each value a person of its own: a search by that exact value
 * still finds the lookup, but no link is made from a guess.
 */
export function shownSubjects(answer: unknown, schema?: unknown): ShownSubjects {
  const kinds = new Map<string, PersonKeyKind>();
  const people = new People();
  let nodes = 0;
  let truncated = false;
  const take = (value: unknown, kind: PersonKeyKind, record: string[]) => {
    if (typeof value === 'string') {
      const text = value.trim();
      if (text !== '' && text.length <= SHOWN_LIMITS.maxLength) {
        if (kinds.has(text)) record.push(text);
        else if (kinds.size < SHOWN_LIMITS.maxIdentifiers) {
          kinds.set(text, kind);
          record.push(text);
        } else truncated = true;
      }
    } else if (Array.isArray(value)) {
      // A list of identifiers (`memberIdentifiers`): each is a person of its own.
      for (const item of value) if (typeof item === 'string') take(item, kind, []);
    }
  };
  // Iterative, so depth costs no stack.
  const stack: Array<[unknown, unknown, number]> = [[answer, schema, 0]];
  while (stack.length > 0) {
    const [value, at, depth] = stack.pop()!;
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
      const element = fieldSchema(at, 0);
      for (let index = Math.min(value.length, room) - 1; index >= 0; index -= 1) {
        stack.push([value[index], element, depth + 1]);
      }
      continue;
    }
    const record: string[] = [];
    for (const [key, child] of Object.entries(value)) {
      const declared = fieldSchema(at, key);
      const marked = personKeyKindOf(declared);
      if (marked) take(child, marked, record);
      else if (schema === undefined && isIdentifierField(key)) take(child, 'identifier', []);
      if (typeof child === 'object' && child !== null) stack.push([child, declared, depth + 1]);
    }
    if (record.length > 0) people.add(record);
  }
  // Values only ever seen in lists of identifiers are people of their own.
  for (const value of kinds.keys()) people.add([value]);
  const personOf = people.numbering();
  const keys = [...kinds].map(([value, kind]) => ({ value, kind, person: personOf(value) }));
  return {
    identifiers: keys.map((key) => key.value),
    keys,
    recordCount: countRecords(answer),
    truncated,
  };
}
