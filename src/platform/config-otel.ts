import { z } from 'zod';
import { BOOL_WANTED, bool, intIn } from './config-parsers.js';
import type { VariableDoc } from './config-variables.js';

// Traces (docs/tracing.md): the standard OTEL_* variables the service validates itself; the SDK reads these and
// the others it knows (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES …) from the environment as usual.

/** OTLP/HTTP default: the SDK's own timeout is 10 s; a collector that does not answer is given up on sooner. */
export const OTLP_TIMEOUT_MS = 5000;

const variable = <S extends z.ZodType>(schema: S, doc: VariableDoc) => ({ schema, doc });
const otlpUrl = z.string().refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v));
const URL_WANTED = 'an http(s) URL, e.g. http://collector:4318';
const otlpProtocol = z.enum(['http/protobuf', 'http/json']);
const PROTOCOL_WANTED = "http/protobuf or http/json (grpc is not built in: use the collector's HTTP port, 4318)";
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
const timeout = (about: string) =>
  variable(intIn(1, 600_000).optional(), {
    wanted: 'a whole number of milliseconds between 1 and 600000',
    about,
    defaultText: String(OTLP_TIMEOUT_MS),
  });
const count = (max: number, about: string, defaultText: string) =>
  variable(intIn(1, max).optional(), { wanted: `a whole number between 1 and ${max}`, about, defaultText });

export const TRACING_VARIABLES = {
  OTEL_SDK_DISABLED: variable(bool.optional(), {
    wanted: BOOL_WANTED,
    about: '`true`: no traces even with an endpoint set',
    defaultText: 'false',
  }),
  OTEL_TRACES_EXPORTER: variable(z.enum(['otlp', 'none']).optional(), {
    wanted: 'otlp or none (no other exporter is built in)',
    about: '`none`: no traces even with an endpoint set',
    defaultText: '`otlp`',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable(otlpUrl.optional(), {
    wanted: URL_WANTED,
    about: "the collector's OTLP/HTTP base URL; `/v1/traces` is appended",
    defaultText: 'unset (traces off)',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable(otlpUrl.optional(), {
    wanted: URL_WANTED,
    about: 'the traces URL as it is; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`',
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: variable(otlpProtocol.optional(), {
    wanted: PROTOCOL_WANTED,
    about: 'how spans are encoded',
    defaultText: '`http/protobuf`',
  }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: variable(otlpProtocol.optional(), {
    wanted: PROTOCOL_WANTED,
    about: 'the same for traces; wins over `OTEL_EXPORTER_OTLP_PROTOCOL`',
    defaultText: '`http/protobuf`',
  }),
  OTEL_EXPORTER_OTLP_TIMEOUT: timeout('how long one export may take; its spans are then dropped and counted'),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: timeout('the same for traces; wins over `OTEL_EXPORTER_OTLP_TIMEOUT`'),
  OTEL_SERVICE_NAME: variable(z.string().trim().min(1).max(200).optional(), {
    wanted: '1 to 200 characters',
    about: 'set, it names every process alike',
    defaultText: '`switchboard-api`, `switchboard-worker`, `switchboard` by role',
  }),
  OTEL_TRACES_SAMPLER: variable(z.enum(SAMPLERS).optional(), {
    wanted: `one of ${SAMPLERS.join(', ')}`,
    about: 'which traces are kept',
    defaultText: '`parentbased_always_on`',
  }),
  OTEL_TRACES_SAMPLER_ARG: variable(z.coerce.number().min(0).max(1).optional(), {
    wanted: 'a ratio between 0 and 1',
    about: 'the ratio of the `traceidratio` samplers',
  }),
  OTEL_BSP_MAX_QUEUE_SIZE: count(
    1_000_000,
    'spans ended and not yet exported; past it spans are dropped and counted in `switchboard_trace_spans_dropped_total`',
    '2048',
  ),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: count(1_000_000, 'spans per export', '512'),
  OTEL_BSP_SCHEDULE_DELAY: variable(intIn(0, 600_000).optional(), {
    wanted: 'a whole number of milliseconds between 0 and 600000',
    about: 'time between exports',
    defaultText: '5000',
  }),
  OTEL_BSP_EXPORT_TIMEOUT: variable(intIn(1, 600_000).optional(), {
    wanted: 'a whole number of milliseconds between 1 and 600000',
    about: 'how long a batch may take',
    defaultText: '30000',
  }),
};
