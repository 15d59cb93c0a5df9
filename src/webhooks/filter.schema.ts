import { jsonObject } from '../platform/input.js';
import { jsonRecord } from '../platform/output.js';
import { FIELD_OPERATORS, FILTER_LIMITS, readFilter } from './filter-grammar.js';

// A subscription's `filter` at the API's boundary (docs/webhook-filters.md). Its shape and bounds are checked
// here, each issue named by its place in the filter (`filter.$or.1.amount.$gte`); whether its paths and operands
// fit the subscribed event types is the service's check, which knows the events (filter-check.ts).

const DESCRIPTION = `Only events whose payload matches get a delivery (docs/webhook-filters.md). Keys are dotted payload paths or $and/$or (lists of filters) and $not (a filter); a path takes a value (equality) or an object of operators: ${FIELD_OPERATORS.join(', ')}. At most ${FILTER_LIMITS.bytes} bytes, ${FILTER_LIMITS.nodes} paths and operators, ${FILTER_LIMITS.depth} nested $and/$or/$not, ${FILTER_LIMITS.list} values in a list.`;

export const filterInput = jsonObject(FILTER_LIMITS.bytes)
  .superRefine((value, ctx) => {
    for (const issue of readFilter(value).issues)
      ctx.addIssue({ code: 'custom', path: issue.at, message: issue.message });
  })
  .meta({
    id: 'WebhookFilter',
    type: 'object',
    additionalProperties: {},
    description: DESCRIPTION,
    examples: [{ channel: { $in: ['sms', 'email'] }, $or: [{ direction: 'inbound' }, { subject: { $exists: true } }] }],
  });

export const filterResponse = jsonRecord()
  .nullable()
  .describe('The filter on the payload; null: every event of the subscribed types (docs/webhook-filters.md)');
