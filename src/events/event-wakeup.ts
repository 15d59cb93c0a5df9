import type { Deps } from '../app/deps.js';

// After a transaction that wrote events commits, one Redis message per account says so, to every web process:
// MCP event polls and streams waiting on that account read their log again at once (src/mcp/events/wakeups.ts).
// The message carries nothing but the wakeup; what happened is read from Postgres, so a lost message delays a
// reader until its next heartbeat or timeout and loses nothing.

export const eventWakeupChannel = (prefix: string, accountId: string): string => `${prefix}:mcp-events:${accountId}`;

export async function publishEventWakeups(deps: Deps, accountIds: Iterable<string>): Promise<void> {
  for (const accountId of new Set(accountIds)) {
    await deps.redis.publish(eventWakeupChannel(deps.config.bullmqPrefix, accountId), '1');
  }
}
