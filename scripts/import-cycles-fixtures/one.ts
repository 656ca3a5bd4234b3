// One side of a deliberate import circle (import-cycles.test.ts proves it is found).
import type { Two } from './two';

export interface One {
  readonly two?: Two;
}
