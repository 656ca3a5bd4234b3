// How the planning page writes a share of data-subject calls on v4: a whole percentage, or a dash
// when there were no calls (no figure, not 0 %: docs/planning.md).

/** `0.8` → "80 %"; null (no data-subject calls) → "—". */
export const percentOf = (share: number | null): string =>
  share === null ? '—' : `${Math.round(share * 100)} %`;
