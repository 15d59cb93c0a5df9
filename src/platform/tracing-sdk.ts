import { IncomingMessage } from 'node:http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KoaInstrumentation, KoaLayerType } from '@opentelemetry/instrumentation-koa';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { TraceFlags, type Context } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/sdk-trace-node';
import type { TracingConfig } from './config.js';
import { tracingState } from './tracing.js';

// The OpenTelemetry SDK, loaded only when an OTLP endpoint is set (src/instrumentation.ts imports this module
// dynamically behind that check; docs/tracing.md). A collector that is slow or gone never holds up a request or a
// delivery: spans are exported in the background in batches, the queue of spans waiting for export is bounded,
// an export gives up after the OTLP timeout, and what is lost either way is counted for /metrics.

/** What a recorded value that could hold a secret is replaced with (the semantic conventions' word). */
const REDACTED = 'REDACTED';

/** Requests never worth a trace: probes and scrapes, every few seconds. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Starts the SDK and the instrumentations; `serviceName` is the default when OTEL_SERVICE_NAME is unset. */
export function startTracing(config: TracingConfig, serviceName: string): void {
  const Exporter = config.protocol === 'http/json' ? OtlpJsonExporter : OtlpProtobufExporter;
  const queue = { pending: 0 };
  const exporter = countFailedExports(new Exporter({ url: config.url, timeoutMillis: config.timeoutMs }), queue);
  // The BatchSpanProcessor reads OTEL_BSP_* itself; its queue bound is also enforced (and counted) around it.
  const batch = new BatchSpanProcessor(exporter, { maxQueueSize: config.maxQueueSize });
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': config.serviceName ?? serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [boundQueue(batch, config.maxQueueSize, queue)],
  });
  // The AsyncLocalStorage context manager, and W3C trace context as the only propagator: no baggage, so that
  // nothing a client sends the API in a baggage header is passed on to webhook receivers.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]!),
        // A query string may carry a secret (an OAuth code, a signed link): its value is never recorded.
        requestHook: (span, req) => {
          const target = req instanceof IncomingMessage ? req.url : req.path;
          if (target?.includes('?')) span.setAttribute('url.query', REDACTED);
        },
      }),
      // Every middleware as a span would bury the route: the router's layer is kept (it names the route).
      new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
      // Only inside a trace: the workers' polling and the schedulers' queries would each make a trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
      // The command's name only: its arguments hold cached key rows and job data.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      // The outbound POST of each delivery attempt (and of HTTP agent runtimes): a client span, and the
      // traceparent header receivers get (docs/webhooks.md).
      new UndiciInstrumentation({
        requireParentforSpans: true,
        // A receiver's URL is the customer's secret as often as not (a token in its path or query, as chat
        // webhooks have): the span keeps its origin only.
        requestHook: (span, request) => {
          span.setAttribute('url.full', request.origin);
          span.setAttribute('url.path', REDACTED);
          span.setAttribute('url.query', REDACTED);
        },
      }),
    ],
  });
  tracingState.shutdown = () => provider.shutdown();
  tracingState.on = true;
}

/**
 * The queue bound, counted: a span is passed on only while fewer than `max` spans are ended and not yet exported
 * (or given up on); past that it is dropped and counted, so memory stays bounded when the collector is gone.
 */
function boundQueue(inner: SpanProcessor, max: number, queue: { pending: number }): SpanProcessor {
  return {
    onStart: (span: Span, parent: Context) => inner.onStart(span, parent),
    onEnd(span: ReadableSpan) {
      if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
      if (queue.pending >= max) {
        tracingState.dropped.queue_full++;
        return;
      }
      queue.pending++;
      inner.onEnd(span);
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

/** The exporter, counting the spans of every batch the collector refused or did not answer in time. */
function countFailedExports(exporter: SpanExporter, queue: { pending: number }): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) tracingState.dropped.export_failed += spans.length;
        queue.pending = Math.max(0, queue.pending - spans.length);
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
