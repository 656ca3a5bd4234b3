// The worker thread that reads large event-types answers (answer-parser.ts): parsing, checking
// and serialising 16 MB of JSON takes the better part of a second, which on the main thread would
// stall every other request, /healthz included. Here it stalls nothing but this thread, and so
// does building the response's body around the checked list (another 16 MB copy). The answer's
// bytes arrive moved, not copied, and the body's bytes go back the same way.
import { parentPort } from 'node:worker_threads';
import { runInBackground } from './background-thread';
import { checkedEventTypesBody } from './event-types-json';
import { bufferView, ownedWhole } from './owned-bytes';

/** A job: the answer's bytes, and when they arrived (the body's `fetchedAt`). */
export interface AnswerJob {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly fetchedAt: string;
}

/**
 * Its result: the body of `GET /api/event-types` as UTF-8 JSON (where the items are in it follows
 * from the job's `fetchedAt`: `withItems`), or null when the answer is not a list of event types.
 */
export interface AnswerResult {
  readonly id: number;
  readonly body: Uint8Array | null;
}

// Requests come first: this thread takes the cores the event loop leaves (background-thread.ts).
runInBackground();

parentPort?.on('message', (job: AnswerJob) => {
  const list = checkedEventTypesBody(bufferView(job.bytes), job.fetchedAt);
  const body = list ? ownedWhole(list.body) : null;
  const result: AnswerResult = { id: job.id, body };
  parentPort?.postMessage(result, body ? [body.buffer as ArrayBuffer] : []);
});
