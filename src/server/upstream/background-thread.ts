// Marks the calling thread as background work for the operating system. The answer worker reads
// large answers so that the event loop keeps turning, but on a machine with few cores it competes
// with the event loop for them: on two cores, with 16 answers of 16 MB arriving at once, single
// /healthz probes waited up to 235–325 ms. At a lower priority the worker takes the cores the
// event loop leaves; in that scenario every answer was still read within its deadline
// (bench/findings/large-answers.md).
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The niceness of background threads: below every request, above idle work. */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers this thread's scheduling priority to BACKGROUND_NICENESS, where the system allows it:
 * on Linux, where niceness is a thread's own (setpriority(2) with the thread's id). Elsewhere, or
 * when not allowed, the thread keeps the process's priority; returns whether it was lowered.
 */
export function runInBackground(): boolean {
  try {
    // `/proc/thread-self` links to `<pid>/task/<thread id>`.
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, Math.max(BACKGROUND_NICENESS, getPriority(threadId)));
    return true;
  } catch {
    return false;
  }
}
