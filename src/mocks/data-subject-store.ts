// The mock's data-subject side: the catalog it serves (the console's, so an override file can be
// tried in demo mode), the synthetic data set, and a record of where each parameter arrived, so
// tests can check the wire at the upstream's end.
import { BUILT_IN_OPERATIONS, type DataSubjectOperation } from '../shared/data-subject-operations';
import { anchorDay, generateDataSubjects, type MockDataSubjectSet } from './data/data-subjects';

/** One data-subject request as the mock received it: only the catalog's parameters. */
export interface ReceivedLookup {
  readonly operation: string;
  readonly path: string;
  /** Query parameters as received. */
  readonly query: Readonly<Record<string, string>>;
  /** Headers the catalog names for this operation, as received (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
}

/** The data-subject state of one mock upstream. */
export interface DataSubjectStore {
  readonly operations: readonly DataSubjectOperation[];
  readonly data: MockDataSubjectSet;
  /** The data-subject requests received, oldest first (the last 500). */
  received(): ReceivedLookup[];
  noteReceived(request: ReceivedLookup): void;
  clearReceived(): void;
}

const KEEP = 500;

/** Creates the store; its dates count back from the day of `now`. */
export function createDataSubjectStore(
  now: number,
  operations: readonly DataSubjectOperation[] = BUILT_IN_OPERATIONS,
): DataSubjectStore {
  const data = generateDataSubjects(anchorDay(now));
  let received: ReceivedLookup[] = [];
  return {
    operations,
    data,
    received: () => [...received],
    noteReceived(request) {
      received.push(request);
      if (received.length > KEEP) received = received.slice(-KEEP);
    },
    clearReceived() {
      received = [];
    },
  };
}
