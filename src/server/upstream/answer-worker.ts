// The worker thread that reads large event-types answers (answer-parser.ts): parsing, checking
// and serialising 16 MB of JSON takes the better part of a second, which on the main thread would
// stall every other request, /healthz included. Here it stalls nothing but this thread. The
// answer's bytes arrive moved, not copied, and the result's bytes go back the same way.
import { parentPort } from 'node:worker_threads';
import { checkedEventTypesJson } from './event-types-json';
import { bufferView, ownedWhole } from './owned-bytes';

/** A job: the answer's bytes. */
export interface AnswerJob {
  readonly id: number;
  readonly bytes: Uint8Array;
}

/** Its result: the checked items as UTF-8 JSON, or null when the answer is not a list of them. */
export interface AnswerResult {
  readonly id: number;
  readonly itemsJson: Uint8Array | null;
}

parentPort?.on('message', (job: AnswerJob) => {
  const items = checkedEventTypesJson(bufferView(job.bytes));
  const itemsJson = items ? ownedWhole(items) : null;
  const result: AnswerResult = { id: job.id, itemsJson };
  parentPort?.postMessage(result, itemsJson ? [itemsJson.buffer as ArrayBuffer] : []);
});
