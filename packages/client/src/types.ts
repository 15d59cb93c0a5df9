import type { operations } from './generated/api-types.js';
import type { OPERATIONS } from './generated/operations.js';

// The type of each method of the client, read from the generated types of its operation: `path` when the route
// has path parameters, `query` when it takes any, `body` (required when the API requires one), and the answer's
// JSON, or undefined for an answer with no body.

export type OperationId = keyof operations & keyof typeof OPERATIONS;

type Json<C> = C extends { 'application/json': infer T } ? T : undefined;
type PathOf<O> = O extends { parameters: { path: infer P } } ? P : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type BodyRequired<O> = O extends { requestBody: { content: object } } ? true : false;

/** What every call may also take. */
export interface CallOptions {
  /** Aborts the call, and any wait before a retry. */
  signal?: AbortSignal;
  /** Sent with this call only (beside the client's own). */
  headers?: Record<string, string>;
}

/** The Idempotency-Key of a creating call: generated once per call when left out, and the same on its retries. */
export interface IdempotencyOption {
  idempotencyKey?: string;
}

type Merge<T> = { [K in keyof T]: T[K] };

export type ArgsOf<K extends OperationId> = Merge<
  ([PathOf<operations[K]>] extends [never] ? unknown : { path: PathOf<operations[K]> }) &
    ([QueryOf<operations[K]>] extends [never] ? unknown : { query?: QueryOf<operations[K]> }) &
    ([BodyOf<operations[K]>] extends [never]
      ? unknown
      : BodyRequired<operations[K]> extends true
        ? { body: BodyOf<operations[K]> }
        : { body?: BodyOf<operations[K]> }) &
    ((typeof OPERATIONS)[K]['idempotencyKey'] extends true ? IdempotencyOption : unknown) &
    CallOptions
>;

type Responses<K extends OperationId> = operations[K]['responses'];
type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204>;

/** The JSON a call answers with on success (the 2xx of its operation), undefined when that answer has no body. */
export type ResultOf<K extends OperationId> = Json<
  NonNullable<Responses<K>[SuccessStatus<K>] extends { content?: infer C } ? C : undefined>
>;

/** One method per operation, named by its operationId; its argument may be left out when nothing in it is required. */
export type Method<K extends OperationId> =
  Partial<ArgsOf<K>> extends ArgsOf<K>
    ? (args?: ArgsOf<K>) => Promise<ResultOf<K>>
    : (args: ArgsOf<K>) => Promise<ResultOf<K>>;

export type Operations = { [K in OperationId]: Method<K> };

/** The item type of a list operation's `data`. */
export type ItemOf<K extends OperationId> = ResultOf<K> extends { data: Array<infer T> } ? T : never;

/** The operations whose answer is a page of the one list shape ({data, hasMore, nextCursor}). */
export type ListOperationId = {
  [K in OperationId]: ResultOf<K> extends { data: unknown[]; nextCursor: string | null } ? K : never;
}[OperationId];

export type { components, operations, paths } from './generated/api-types.js';
