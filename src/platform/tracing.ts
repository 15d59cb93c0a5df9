import {
  context,
  trace,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Attributes,
  type Span,
} from '@opentelemetry/api';

// The spans the service makes by hand, where no instrumentation sees the work: the enqueue (a producer span whose
// ids the job carries as a W3C traceparent) and the job a worker runs (a consumer span under that parent). Only
// @opentelemetry/api is imported here. With tracing off (no OTLP endpoint: docs/tracing.md) `tracingState.on` is
// false, the SDK was never loaded, and every helper is one boolean test before the work it wraps.

/**
 * Set by src/platform/tracing-sdk.ts once the SDK runs; read at scrape time by src/platform/metrics.ts. It is the
 * process's, not a runtime's: the SDK is started once per process (src/instrumentation.ts, before any runtime)
 * and registers its tracer provider and context manager on @opentelemetry/api's globals, so every runtime in the
 * process traces through it and reports its lost spans.
 */
export const tracingState = {
  on: false,
  /** Spans lost: the export queue was full, or the collector refused or did not answer the batch they were in. */
  dropped: { queue_full: 0, export_failed: 0 },
  /** Flushes what is queued and stops the exporter (the SDK's shutdown); set with `on`. */
  shutdown: async (): Promise<void> => undefined,
};

const tracer = () => trace.getTracer('switchboard');

/** version 00, 32 hex trace id, 16 hex parent id, 2 hex flags: ids only, no tracestate, no baggage. */
export const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C traceparent of a span. */
function traceparentOf(span: Span): string | undefined {
  const sc = span.spanContext();
  if (!trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags & TraceFlags.SAMPLED ? '01' : '00'}`;
}

/**
 * Runs `add` inside a producer span for the jobs it puts on `queue`, handing it the traceparent each job is to
 * carry; outside any trace (a scheduled job's own enqueues are inside its span, a start-up task's are not), `add`
 * gets undefined and no span is made.
 */
export async function withEnqueueSpan<T>(
  queue: string,
  jobName: string,
  count: number,
  add: (traceparent: string | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingState.on || !trace.getSpan(context.active())) return add(undefined);
  const attributes = {
    'messaging.system': 'bullmq',
    'messaging.destination.name': queue,
    'messaging.batch.message_count': count,
  };
  return tracer().startActiveSpan(`send ${jobName}`, { kind: SpanKind.PRODUCER, attributes }, (span) =>
    settle(span, add(traceparentOf(span))),
  );
}

/**
 * Runs a worker's job inside a consumer span, child of the producer span its traceparent names (a root span when
 * it has none: a scheduled job, a job enqueued with tracing off). The processor's `{ outcome }` is recorded.
 */
export async function withJobSpan<T>(
  job: { queue: string; name: string; id: string | undefined; attempt: number; traceparent: string | undefined },
  run: () => Promise<T>,
): Promise<T> {
  if (!tracingState.on) return run();
  const attributes: Attributes = {
    'messaging.system': 'bullmq',
    'messaging.destination.name': job.queue,
    'messaging.operation.type': 'process',
    ...(job.id ? { 'messaging.message.id': job.id } : {}),
    'switchboard.job.attempt': job.attempt,
  };
  const parent = parentContext(job.traceparent);
  return tracer().startActiveSpan(`process ${job.name}`, { kind: SpanKind.CONSUMER, attributes }, parent, (span) =>
    settle(
      span,
      run().then((result) => {
        const outcome = (result as { outcome?: unknown } | undefined)?.outcome;
        if (typeof outcome === 'string') span.setAttribute('switchboard.job.outcome', outcome);
        return result;
      }),
    ),
  );
}

/** The context a job's traceparent names, as a remote parent; the root context when there is none. */
function parentContext(traceparent: string | undefined) {
  const m = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!m) return ROOT_CONTEXT;
  const spanContext = { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16), isRemote: true };
  return trace.isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : ROOT_CONTEXT;
}

/** Ends `span` when `work` settles, with an error status (and the exception) when it rejects. */
async function settle<T>(span: Span, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    // A job moved to delayed (a throttled delivery waits for its slot) ends with BullMQ's DelayedError: no failure.
    if ((err as Error)?.name === 'DelayedError') {
      span.setAttribute('switchboard.job.outcome', 'delayed');
      throw err;
    }
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
    throw err;
  } finally {
    span.end();
  }
}

/** Flushes the spans still queued, giving up after `withinMs` (the process is about to exit). */
export async function flushTraces(withinMs: number): Promise<void> {
  if (!tracingState.on) return;
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
  await Promise.race([tracingState.shutdown().catch(() => undefined), giveUp]);
  clearTimeout(timer);
}
