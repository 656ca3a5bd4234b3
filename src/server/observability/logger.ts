// Structured logging with pino. Redaction is the second line of defence: the first is never
// passing secrets, tokens or identifiers to the logger at all.
import pino, { type Logger } from 'pino';
import { activeTraceId } from './traced-steps';

export type { Logger };

/** Paths whose values are replaced by "[redacted]" wherever they appear in a log record. */
const REDACTED_PATHS = [
  'authorization',
  'cookie',
  'password',
  'identifier',
  'access_token',
  'client_secret',
  'clientSecret',
  'token',
  '*.authorization',
  '*.Authorization',
  '*.cookie',
  '*.password',
  '*.identifier',
  '*.access_token',
  '*.client_secret',
  '*.clientSecret',
  '*.token',
  'headers.authorization',
  'headers.cookie',
  // Console sign-in: the session secret, session ids, password hashes and cookies being set.
  'secret',
  'sessionSecret',
  'sessionId',
  'passwordHash',
  '*.secret',
  '*.sessionSecret',
  '*.sessionId',
  '*.passwordHash',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
];

/** Creates the process logger writing JSON lines to stdout. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'privacy-api-console' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // The trace a line was written in, so a trace leads to its log lines and back.
      mixin: () => {
        const traceId = activeTraceId();
        return traceId ? { traceId } : {};
      },
    },
    destination,
  );
}
