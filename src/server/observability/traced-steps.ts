// The console's own spans, through the OpenTelemetry API alone: with no SDK started (tracing off)
// every call below is the API's no-op, so the code paths are the same whether tracing is on or off.
// Attributes are chosen here and nowhere else: names of steps, operation ids, statuses, rule ids,
// never a URL, a header value, an identifier or an error's message (which may quote either).
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';

const tracer = trace.getTracer('privacy-api-console');

/** A span attribute's value: the step's facts only (see the file's header). */
export type StepAttributes = Attributes;

/**
 * Runs `work` in a span named `name` (a step: "session check", "token fetch"…), as the active
 * span so steps inside it become its children. A failure marks the span as an error with the
 * error's class name only.
 */
export function traceStep<T>(
  name: string,
  attributes: StepAttributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active trace's id (32 hex digits), or undefined outside a recorded trace. */
export function activeTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** `headers` with the active trace's `traceparent` (and `tracestate`) added, when there is one. */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  const carrier = { ...headers };
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * The request's server span: continues the caller's `traceparent` (a browser's or an ingress's)
 * when it is well formed, else starts a new trace (the W3C propagator ignores a malformed one).
 * Named and labelled by the route pattern, never the path, so no identifier in a URL reaches it.
 */
export function traceRequests(): MiddlewareHandler {
  return async (c, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, c.req.header());
    const method = c.req.method;
    await tracer.startActiveSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
      parent,
      async (span) => {
        try {
          await next();
        } finally {
          const route = routePath(c);
          span.updateName(`${method} ${route}`);
          span.setAttribute('http.route', route);
          span.setAttribute('http.response.status_code', c.res.status);
          if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        }
      },
    );
  };
}

/**
 * `middleware` inside a span named `name` that ends when the middleware hands on to the next
 * handler (or answers itself), so the span times the check alone; what follows runs in the
 * request's span again, not as a child of the finished check.
 */
export function tracedMiddleware<M extends MiddlewareHandler>(name: string, middleware: M): M {
  const traced: MiddlewareHandler = async (c, next) => {
    const parent = context.active();
    const span = tracer.startSpan(name, {}, parent);
    let ended = false;
    const end = () => {
      if (!ended) span.end();
      ended = true;
    };
    try {
      return await context.with(trace.setSpan(parent, span), () =>
        middleware(c, async () => {
          end();
          await context.with(parent, next);
        }),
      );
    } catch (error) {
      if (!ended) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
      }
      throw error;
    } finally {
      end();
    }
  };
  return traced as M;
}
