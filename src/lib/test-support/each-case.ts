// Table-driven tests of a pure function, written once: one test per case, titled with vitest's
// `it.each` placeholders (%s, %j) from the case's input and expected answer.
import { expect, it } from 'vitest';

/** One test per `[input, expected]` case: `fn(input)` must equal `expected`. */
export function itMapsEach<I, O>(
  title: string,
  fn: (input: I) => O,
  cases: ReadonlyArray<readonly [I, O]>,
): void {
  it.each(cases.map(([input, expected]) => [input, expected] as [I, O]))(
    title,
    (input, expected) => {
      expect(fn(input)).toEqual(expected);
    },
  );
}
