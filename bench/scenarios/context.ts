// What every scenario gets: whether this is a smoke run, how many rounds, and a progress printer.
import type { Figure } from '../lib/report';

export interface BenchContext {
  smoke: boolean;
  rounds: number;
  log: (line: string) => void;
}

export type Scenario = (ctx: BenchContext) => Promise<Figure[]>;
