// The worker thread that reads large event-types answers (answer-parser.ts): hashing, parsing,
// checking and serialising 16 MB of JSON takes the better part of a second, which on the main
// thread would stall every other request, /healthz included. Here it stalls nothing but this
// thread.
import { parentPort } from 'node:worker_threads';
import { readEventTypesAnswer, type EventTypesReading } from './event-types-json';

/** A job: the answer's text and the digest of the last list read for the same filters. */
export interface AnswerJob {
  readonly id: number;
  readonly text: string;
  readonly knownDigest: string | undefined;
}

/** Its result. */
export interface AnswerResult {
  readonly id: number;
  readonly reading: EventTypesReading;
}

parentPort?.on('message', (job: AnswerJob) => {
  const result: AnswerResult = {
    id: job.id,
    reading: readEventTypesAnswer(job.text, job.knownDigest),
  };
  parentPort?.postMessage(result);
});
