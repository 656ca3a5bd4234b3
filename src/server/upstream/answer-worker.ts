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
 * Its result: the body of `GET /api/event-types` as UTF-8 JSON and where the checked items are in
 * it, or a null body when the answer is not a list of them.
 */
export interface AnswerResult {
  readonly id: number;
  readonly body: Uint8Array | null;
  readonly itemsStart: number;
  readonly itemsEnd: number;
}

// Requests come first: this thread takes the cores the event loop leaves (background-thread.ts).
runInBackground();

parentPort?.on('message', (job: AnswerJob) => {
  const list = checkedEventTypesBody(bufferView(job.bytes), job.fetchedAt);
  const body = list ? ownedWhole(list.body) : null;
  const itemsStart = list ? list.items.byteOffset - list.body.byteOffset : 0;
  const result: AnswerResult = {
    id: job.id,
    body,
    itemsStart,
    itemsEnd: list ? itemsStart + list.items.byteLength : 0,
  };
  parentPort?.postMessage(result, body ? [body.buffer as ArrayBuffer] : []);
});
