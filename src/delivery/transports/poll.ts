import type { Transport } from '../transport.js';

/**
 * A poll destination: nothing is sent. Its deliveries are written waiting for their consumer (no due time, no
 * job); a job that reaches one all the same (a path that made it due) is answered `pulled`, and the attempt parks
 * the delivery to wait, pending, for the next poll (docs/adr/0089-poll-destinations.md).
 */
export function createPollTransport(): Transport {
  return {
    send: async () => ({ pulled: true }),
    close: async () => undefined,
  };
}
