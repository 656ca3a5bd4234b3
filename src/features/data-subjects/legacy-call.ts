// The legacy call of the migration view: its parameters taken from the v4 lookup's values by the
// catalog's mapping, and whichever required ones the v4 lookup had no value for.
import type {
  DataSubjectOperation,
  LegacyEquivalent,
  OperationParam,
} from '../../shared/data-subject-operations';

/** What the legacy call can be sent with, and what it still needs. */
export interface LegacyCall {
  readonly values: Record<string, string>;
  /** Required parameters of the legacy operation the v4 lookup gave no value for. */
  readonly missing: OperationParam[];
}

/** The legacy call of `equivalent` for a v4 lookup sent with `v4Values`. */
export function legacyCall(
  equivalent: LegacyEquivalent,
  legacy: DataSubjectOperation,
  v4Values: Readonly<Record<string, string>>,
): LegacyCall {
  const values: Record<string, string> = {};
  for (const [legacyName, v4Name] of Object.entries(equivalent.params)) {
    const value = v4Values[v4Name];
    if (value) values[legacyName] = value;
  }
  return {
    values,
    missing: legacy.params.filter((param) => param.required && !values[param.name]),
  };
}
