import { startReceiver, type Receiver } from './receiver.js';

// An OTLP/HTTP collector for tracing tests: a real receiver on 127.0.0.1 that accepts what the SDK's exporter posts,
// and the spans read back from it when they came as JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).

export interface OtlpSpan {
  /** service.name of the resource the span came with. */
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

export const SPAN_KIND = { server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** A collector answering every export with an empty success, in the encoding it came in. */
export function startCollector(): Promise<Receiver> {
  return startReceiver((req) =>
    String(req.headers['content-type']).includes('protobuf')
      ? { headers: { 'content-type': 'application/x-protobuf' }, body: '' }
      : { headers: { 'content-type': 'application/json' }, body: '{}' },
  );
}

/** Every span the collector got so far. */
export function spansOf(collector: Receiver): OtlpSpan[] {
  type Batch = {
    resourceSpans?: Array<{
      resource: { attributes: OtlpSpan['attributes'] };
      scopeSpans: Array<{ spans: OtlpSpan[] }>;
    }>;
  };
  return collector.received.flatMap((r) =>
    ((r.body as Batch)?.resourceSpans ?? []).flatMap((rs) => {
      const service = String(rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue);
      return rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => ({ ...s, service })));
    }),
  );
}

/** The value of a span attribute (`{ stringValue }`, `{ intValue }` …). */
export const attributeOf = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value;
