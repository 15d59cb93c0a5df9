// @switchboard/client: a typed client of the Switchboard API (README.md).
export { createClient, type ClientOptions, type SwitchboardClient } from './client.js';
export { errorFromResponse, SwitchboardError, type SwitchboardErrorType } from './errors.js';
export { paginate } from './paginate.js';
export type { RetryOptions } from './retry.js';
export type {
  ArgsOf,
  CallOptions,
  components,
  IdempotencyOption,
  ItemOf,
  ListOperationId,
  OperationId,
  operations,
  paths,
  ResultOf,
} from './types.js';
