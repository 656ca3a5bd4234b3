// The worker thread that reads large event-types answers (answer-parser.ts): parsing, checking
// and serialising 16 MB of JSON takes the better part of a second, which on the main thread would
// stall every other request, /healthz included. Here it stalls nothing but this thread.
import { parentPort } from 'node:worker_threads';
import { checkedEventTypesJson } from './event-types-json';

/** A job: the answer's text. */
export interface AnswerJob {
  readonly id: number;
  readonly text: string;
}

/** Its result: the checked items as JSON text, or null when the answer is not a list of them. */
export interface AnswerResult {
  readonly id: number;
  readonly itemsJson: string | null;
}

parentPort?.on('message', (job: AnswerJob) => {
  const result: AnswerResult = { id: job.id, itemsJson: checkedEventTypesJson(job.text) ?? null };
  parentPort?.postMessage(result);
});
