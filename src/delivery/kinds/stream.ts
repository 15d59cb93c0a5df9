import { createStreamTransport } from '../transports/stream.js';
import { defineKind } from './kind.js';

/**
 * stream: sent down a `switchboard listen` connection while it is open (docs/adr/0054-stream-destinations.md);
 * opened by the CLI's session, never by POST /v1/webhooks. Its url is the forwarding target the session names.
 */
export const stream = defineKind({
  name: 'stream',
  created: false,
  pulled: false,
  url: 'public',
  fields: [],
  label: 'a switchboard listen session',
  transport: (p) => createStreamTransport(p.config, p.db, p.redis, p.logger),
  description: 'sent down a `switchboard listen` connection while it is open',
});
