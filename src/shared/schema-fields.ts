// Following the fields a zod (mini) schema declares, for code that walks an answer along its
// schema: the audit trail finds the marked person keys (server/audit/shown-identifiers.ts), and a
// test degrades answers field by field. Reads zod's own definition objects, nothing else.

interface SchemaDef {
  type?: string;
  innerType?: unknown;
  shape?: Record<string, unknown>;
  element?: unknown;
}

function defOf(schema: unknown): SchemaDef | undefined {
  return (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
}

/** The schema under its optional/nullable wrappers. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let depth = 0; depth < 8; depth += 1) {
    const def = defOf(current);
    if (def?.type !== 'optional' && def?.type !== 'nullable') return current;
    current = def.innerType;
  }
  return current;
}

/** What the schema is under its wrappers: `object`, `array`, `string`… (undefined: not zod). */
export function schemaKind(schema: unknown): string | undefined {
  return defOf(unwrap(schema))?.type;
}

/** Whether the schema may be left out (its outermost wrapper is optional). */
export function isOptionalSchema(schema: unknown): boolean {
  return defOf(schema)?.type === 'optional';
}

/** The schema of field `key` of an object schema, or of the items (`0`) of an array schema. */
export function fieldSchema(schema: unknown, key: string | number): unknown {
  const def = defOf(unwrap(schema));
  if (!def) return undefined;
  if (typeof key === 'number') return def.type === 'array' ? def.element : undefined;
  return def.type === 'object' ? def.shape?.[key] : undefined;
}

/**
 * A value with every field `schema` declares, optional ones included, each list holding one item:
 * what the documents say an answer can hold, in a shape the answer comparison reads (the
 * migration report compares two operations' documented answers with it).
 */
export function sampleOf(schema: unknown, depth = 0): unknown {
  const def = defOf(schema) as
    | (SchemaDef & {
        options?: unknown[];
        entries?: Record<string, unknown>;
        values?: unknown[];
        in?: unknown;
        getter?: () => unknown;
      })
    | undefined;
  if (!def || depth > 12) return 'x';
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return sampleOf(def.innerType, depth + 1);
    case 'pipe':
      return sampleOf(def.in, depth + 1);
    case 'lazy':
      return def.getter ? sampleOf(def.getter(), depth + 1) : 'x';
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape ?? {}).map(([key, field]) => [key, sampleOf(field, depth + 1)]),
      );
    case 'array':
      return [sampleOf(def.element, depth + 1)];
    case 'union':
      return sampleOf(def.options?.[0], depth + 1);
    case 'enum':
      return Object.values(def.entries ?? {})[0] ?? 'x';
    case 'literal':
      return def.values?.[0] ?? 'x';
    case 'number':
    case 'int':
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'record':
      return {};
    default:
      return 'x';
  }
}
