// How long a test that starts a real process may take. Such a test waits for a signal that the
// process is ready (a line it prints, its exit, its port answering), never for a fixed time; the
// deadline only bounds a hang. Starting `node --import tsx` compiles the TypeScript it loads: about
// a second at rest, and ten or twenty times that beside other work on two cores, where Vitest's
// 5 s default failed tests that were right.

/** How long spawnBff waits for the process's "listening on" line before it gives up. */
export const PROCESS_START_DEADLINE_MS = 60_000;

/**
 * Vitest's timeout for the tests that start processes, set on their describe blocks: room for two
 * starts at the deadline (a restart), and the test's own work.
 */
export const PROCESS_TEST_TIMEOUT_MS = 3 * PROCESS_START_DEADLINE_MS;
