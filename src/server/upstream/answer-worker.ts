// The worker thread that reads large event-types answers (answer-parser.ts): parsing, checking
// and serialising 16 MB of JSON takes the better part of a second, which on the main thread would
// stall every other request, /healthz included. Here it stalls nothing but this thread.
import { parentPort } from 'node:worker_threads';
import { eventTypesResponseJson } from './event-types-json';

/** A job: the answer's text and the time to stamp as `fetchedAt`. */
export interface AnswerJob {
  readonly id: number;
  readonly text: string;
  readonly fetchedAt: string;
}

/** Its result: the finished JSON text, or null when the answer is not a list of event types. */
export interface AnswerResult {
  readonly id: number;
  readonly json: string | null;
}

parentPort?.on('message', (job: AnswerJob) => {
  const result: AnswerResult = {
    id: job.id,
    json: eventTypesResponseJson(job.text, job.fetchedAt) ?? null,
  };
  parentPort?.postMessage(result);
});
