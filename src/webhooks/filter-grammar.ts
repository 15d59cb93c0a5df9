// The grammar of a subscription's filter (docs/webhook-filters.md): its shape and its bounds, checked before
// anything is stored. What a filter means is decided in one place only, Postgres's sb_filter_matches
// (migrations/20261129000400_add_subscription_filter.ts); this module reads a filter into its conditions so that
// they can be checked against the subscribed event types' payloads (filter-check.ts).

/** A filter as stored and returned: the JSON object the client sent. */
export type Filter = Record<string, unknown>;

/** Where in the filter an issue is: the keys and list indexes from its root. */
export type FilterLocation = Array<string | number>;

export interface FilterIssue {
  at: FilterLocation;
  message: string;
}

export const FIELD_OPERATORS = [
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$exists',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$startsWith',
] as const;
export type FieldOperator = (typeof FIELD_OPERATORS)[number];
const LOGICAL_OPERATORS = ['$and', '$or', '$not'];

/** One test of one payload path, and where it is written in the filter. */
export interface FilterCondition {
  at: FilterLocation;
  path: string;
  op: FieldOperator;
  operand: unknown;
}

// Bounds keep a filter cheap to evaluate on every event of its types: at most NODES objects and conditions, at most
// DEPTH nested $and/$or/$not, at most LIST values in one $in/$nin or filters in one $and/$or, at most BYTES of JSON.
export const FILTER_LIMITS = { bytes: 4096, depth: 5, nodes: 50, list: 100 } as const;

// A path: dotted segments of letters, digits, "_" and "-" (a number indexes a list), at most 10 of them.
const PATH = /^[A-Za-z0-9_-]{1,64}(?:\.[A-Za-z0-9_-]{1,64}){0,9}$/;

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The filter's conditions, or the issues that make it invalid (each with its location). */
export function readFilter(filter: unknown): { conditions: FilterCondition[]; issues: FilterIssue[] } {
  const conditions: FilterCondition[] = [];
  const issues: FilterIssue[] = [];
  let nodes = 0;
  const bytes = Buffer.byteLength(JSON.stringify(filter) ?? '');
  if (bytes > FILTER_LIMITS.bytes) {
    return { conditions, issues: [{ at: [], message: `at most ${FILTER_LIMITS.bytes} bytes of JSON` }] };
  }

  const readList = (value: unknown, at: FilterLocation, depth: number) => {
    if (!Array.isArray(value) || value.length === 0 || value.length > FILTER_LIMITS.list)
      return issues.push({ at, message: `a list of 1 to ${FILTER_LIMITS.list} filters` });
    value.forEach((f, i) => readObject(f, [...at, i], depth));
  };

  const readObject = (value: unknown, at: FilterLocation, depth: number): void => {
    if (depth > FILTER_LIMITS.depth)
      return void issues.push({ at, message: `at most ${FILTER_LIMITS.depth} nested $and/$or/$not` });
    if (!isObject(value) || Object.keys(value).length === 0)
      return void issues.push({ at, message: 'a filter is a non-empty object of paths and $and/$or/$not' });
    for (const [key, v] of Object.entries(value)) {
      nodes += 1;
      if (key === '$and' || key === '$or') readList(v, [...at, key], depth + 1);
      else if (key === '$not') readObject(v, [...at, key], depth + 1);
      else if (key.startsWith('$'))
        issues.push({ at: [...at, key], message: `unknown operator; here one of ${LOGICAL_OPERATORS.join(', ')}` });
      else if (!PATH.test(key))
        issues.push({
          at: [...at, key],
          message: 'a path is dotted segments of letters, digits, "_" and "-" (at most 10 of 64 characters)',
        });
      else readField(key, v, [...at, key]);
    }
  };

  const readField = (path: string, value: unknown, at: FilterLocation) => {
    if (!isObject(value)) return readOperand(path, '$eq', value, at);
    const keys = Object.keys(value);
    if (keys.length === 0 || keys.some((k) => !k.startsWith('$')))
      return issues.push({
        at,
        message: 'a condition is a value or an object of operators; name a nested field with a dotted path ("a.b")',
      });
    for (const key of keys) {
      nodes += 1;
      if (!(FIELD_OPERATORS as readonly string[]).includes(key))
        issues.push({ at: [...at, key], message: `unknown operator; one of ${FIELD_OPERATORS.join(', ')}` });
      else readOperand(path, key as FieldOperator, value[key], [...at, key]);
    }
  };

  const readOperand = (path: string, op: FieldOperator, operand: unknown, at: FilterLocation) => {
    const problem = operandProblem(op, operand);
    if (problem) issues.push({ at, message: problem });
    else conditions.push({ at, path, op, operand });
  };

  readObject(filter, [], 0);
  if (nodes > FILTER_LIMITS.nodes)
    issues.unshift({ at: [], message: `at most ${FILTER_LIMITS.nodes} paths and operators` });
  return { conditions, issues };
}

/** Why an operand is not one its operator takes, or null. */
function operandProblem(op: FieldOperator, operand: unknown): string | null {
  switch (op) {
    case '$eq':
    case '$ne':
      return isScalar(operand) ? null : 'a string, number, boolean or null (a list: use $in)';
    case '$in':
    case '$nin':
      return Array.isArray(operand) && operand.length > 0 && operand.length <= FILTER_LIMITS.list
        ? operand.every(isScalar)
          ? null
          : 'each value a string, number, boolean or null'
        : `a list of 1 to ${FILTER_LIMITS.list} values`;
    case '$exists':
      return typeof operand === 'boolean' ? null : 'true or false';
    case '$startsWith':
      return typeof operand === 'string' ? null : 'a string';
    default:
      return typeof operand === 'number' || typeof operand === 'string' ? null : 'a number or a string';
  }
}
