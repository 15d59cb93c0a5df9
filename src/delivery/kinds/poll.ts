import { createPollTransport } from '../transports/poll.js';
import { defineKind } from './kind.js';

/**
 * poll: nothing is sent; its consumer takes its deliveries with GET /v1/webhooks/{webhookId}/poll, which is its url
 * (docs/adr/0089-poll-destinations.md).
 */
export const poll = defineKind({
  name: 'poll',
  created: true,
  pulled: true,
  url: 'none',
  fields: [],
  label: 'its consumer polls the URL with its poll credential',
  transport: () => createPollTransport(),
  description:
    'taken by its consumer with GET /v1/webhooks/{webhookId}/poll (url is that path) and its poll credential',
});
