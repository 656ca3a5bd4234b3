// The other side of a deliberate import circle (import-cycles.test.ts proves it is found).
import type { One } from './one';
import { alone } from './alone';

export interface Two {
  readonly one?: One;
}

export const twice = alone * 2;
