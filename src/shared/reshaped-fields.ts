// Which fields only the legacy answer seems to have are in v4 after all, under another shape: a
// list v4 names differently with the same fields, one value v4 turned into a list, or a legacy
// name → value map whose keys are the names of v4's name/value entries. Without this a migration
// view says v4 "leaves out" data it only carries differently.

/**
 * `moved`: a list under another name with the same fields; `list`: one value became a list of
 * them; `entry`: a map key became the entry of that name in a name/value list.
 */
export const RESHAPE_KINDS = ['moved', 'list', 'entry'] as const;

/** A legacy field v4 carries under another shape. */
export interface Reshaped {
  /** The legacy field path (`linkToken`, `dataElements.country`, `dataElementsMetaData[]`). */
  readonly path: string;
  /** Where v4 has it: a v4 field path (`linkTokens[]`, `dataElements[]`). */
  readonly to: string;
  readonly how: (typeof RESHAPE_KINDS)[number];
  /** For `entry`: the name of the entry, as v4 writes it. */
  readonly entry?: string | undefined;
}

const childrenOf = (list: string, paths: readonly string[]) =>
  paths.filter((path) => path.startsWith(`${list}.`)).map((path) => path.slice(list.length + 1));

/**
 * The reshapes among `legacyOnly`, given what only v4 has and the values v4's fields hold (for
 * the names of name/value entries). A field is reshaped only when every one of its fields has a
 * place in v4: a partial match stays "left out".
 */
export function findReshaped(
  legacyOnly: readonly string[],
  v4Only: readonly string[],
  v4Values: ReadonlyMap<string, readonly string[]>,
): Reshaped[] {
  const found: Reshaped[] = [];
  const covered = (path: string) =>
    found.some((item) => item.path === path || path.startsWith(`${item.path}.`));
  const v4Lists = v4Only.filter((path) => path.endsWith('[]'));
  for (const path of legacyOnly) {
    if (covered(path)) continue;
    if (path.endsWith('[]')) {
      const fields = childrenOf(path, legacyOnly);
      const parent = path.slice(0, path.lastIndexOf('.') + 1);
      const target = v4Lists.find((list) => {
        if (!list.startsWith(parent) || list.slice(parent.length).includes('.')) return false;
        const v4Fields = new Set(childrenOf(list, v4Only));
        return fields.length > 0 && fields.every((field) => v4Fields.has(field));
      });
      if (target) found.push({ path, to: target, how: 'moved' });
      continue;
    }
    // `linkToken` and v4's `linkTokens[]` beside it: one value became a list of them.
    const plural = `${path}s[]`;
    if (v4Lists.includes(plural)) {
      found.push({ path, to: plural, how: 'list' });
      continue;
    }
    // `dataElements.country` and v4's `dataElements[]` holding an entry named "Country".
    const dot = path.lastIndexOf('.');
    if (dot < 0) continue;
    const list = `${path.slice(0, dot)}[]`;
    const key = path.slice(dot + 1).toLowerCase();
    const entry = v4Values.get(`${list}.name`)?.find((name) => name.toLowerCase() === key);
    if (entry !== undefined) found.push({ path, to: list, how: 'entry', entry });
  }
  return found;
}

/** "in v4 as Link tokens, a list", with `label` naming a field path for the reader. */
export function describeReshaped(
  reshaped: Reshaped,
  label: (path: string) => string = (path) => `\`${path}\``,
): string {
  const to = label(reshaped.to);
  switch (reshaped.how) {
    case 'moved':
      return `moved to ${to}, with the same fields`;
    case 'list':
      return `reshaped: now a list, ${to}`;
    case 'entry':
      return `reshaped: the entry named “${reshaped.entry}” in ${to}`;
  }
}
