// A logger at info level whose JSON lines land in an array, parsed, for tests that read what the
// console logs (tests only).
import { Writable } from 'node:stream';
import { createLogger } from '../observability/logger';

/** The logger, and every line it wrote as a parsed object, in order. */
export function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { logger: createLogger('info', destination), lines };
}
