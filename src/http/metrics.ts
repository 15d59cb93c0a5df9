import { Histogram, Registry } from 'prom-client';

/**
 * One registry per app instance, so two apps in one process (tests) never share series. The service's own
 * metrics (deliveries, queues, process) are in deps.metrics; /metrics serves both (src/http/ops.ts).
 */
export function createHttpMetrics() {
  const registry = new Registry();
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    registry,
    observe(method: string, route: string, status: number, seconds: number) {
      duration.observe({ method, route, status: String(status) }, seconds);
    },
  };
}

export type HttpMetrics = ReturnType<typeof createHttpMetrics>;
