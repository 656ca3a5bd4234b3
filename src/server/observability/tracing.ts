// OpenTelemetry traces, on only when the standard OTEL_* variables ask for an exporter: the SDK is
// imported then and never otherwise, so a console without them loads and runs none of it.
import type { Logger } from './logger';

/** Whether `env` asks for traces: an OTLP endpoint or a traces exporter, and the SDK not disabled. */
export function tracingRequested(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || exporter,
  );
}

/** How often at most a failing exporter is logged: a dead collector must not flood the log. */
export const EXPORT_WARNING_INTERVAL_MS = 60_000;

/** A started SDK: flush and stop it on shutdown. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry Node SDK, configured by the OTEL_* variables alone (exporter, endpoint,
 * protocol, sampler, batch queue, resource), with no automatic instrumentation: the console's own
 * spans (traced-steps.ts) name its steps and carry no URL, which patched http/undici spans would.
 * Spans go through the SDK's batch processor, whose queue is bounded (OTEL_BSP_MAX_QUEUE_SIZE,
 * 2048 by default) and drops what does not fit: nothing waits on the collector. Export failures
 * are logged as one warning a minute at most.
 */
export async function startTracing(
  env: Record<string, string | undefined>,
  logger: Logger,
  now: () => number = Date.now,
): Promise<Tracing> {
  const [{ NodeSDK }, { envDetector }, { diag, DiagLogLevel }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/api'),
  ]);
  let lastWarning = Number.NEGATIVE_INFINITY;
  let failures = 0;
  // The SDK reports a failed export (and spans dropped from a full queue) through the API's
  // diagnostic logger, one process-wide: every copy of the SDK's packages reaches it.
  const report = (message: string) => {
    failures += 1;
    if (now() - lastWarning < EXPORT_WARNING_INTERVAL_MS) return;
    lastWarning = now();
    // The message only, cut short: an exporter's error can quote the endpoint's answer.
    logger.warn(
      { failures, reason: message.slice(0, 200) },
      'traces could not be exported; spans are being dropped (said once a minute at most)',
    );
    failures = 0;
  };
  const text = (message: string, args: unknown[]) =>
    [message, ...args.map((arg) => (arg instanceof Error ? arg.message : ''))].join(' ').trim();
  diag.setLogger(
    {
      error: (message, ...args) => report(text(message, args)),
      warn: (message, ...args) => report(text(message, args)),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win; the name below is the default only.
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: 'privacy-api-console' }),
    // The environment's resource attributes only: the process detector would export the command
    // line and the host detector the machine's name and ids, neither of which a trace needs.
    resourceDetectors: [envDetector],
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
