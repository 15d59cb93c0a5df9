import { z } from 'zod';
import { text } from '../platform/input.js';
import { idString, outText, textRecord, uuidString } from '../platform/output.js';
import { badCursor, cursorFields, pageQuery } from '../platform/pagination.js';

// Polling a poll subscription (docs/webhook-polling.md#polling-endpoints). A cursor is a position in one subscription's
// log: base64url of {"w": <subscription id>, "p": <position>}. Validated, not signed (docs/adr/0033-cursors.md):
// it must name the subscription polled and a position its log has reached.

/** GET /v1/webhooks/:webhookId/poll?cursor=&limit= (1..100, default 20). */
export const pollQuery = pageQuery;

/** POST /v1/webhooks/:webhookId/poll/commit */
export const commitPollInput = z.object({ cursor: text().min(1).max(200) }).strict();

export const encodePollCursor = (webhookId: string, position: number): string =>
  Buffer.from(JSON.stringify({ w: webhookId, p: position })).toString('base64url');

/** The position a cursor names, when it is one of this subscription's, up to its head; else 400 naming cursor. */
export function decodePollCursor(cursor: string, webhookId: string, head: number): number {
  const { w, p } = cursorFields(cursor, 'this subscription');
  if (w !== webhookId || !Number.isSafeInteger(p) || (p as number) < 0 || (p as number) > head)
    throw badCursor('this subscription');
  return p as number;
}

const polledDelivery = z
  .object({
    id: uuidString().describe('The envelope id: stable across re-reads and redeliveries'),
    event: outText(),
    headers: textRecord().describe(
      'The headers a POST of this delivery would carry, X-Switchboard-Signature and webhook-signature included, signed at this poll',
    ),
    body: outText().describe('The raw envelope JSON: verify the signatures over exactly this text'),
  })
  .meta({ id: 'PolledDelivery' });

export const pollResponse = z
  .object({
    data: z.array(polledDelivery).describe('In the order of the subscription’s log, after the cursor'),
    hasMore: z.boolean().describe('More deliveries are ready now: poll again at once with nextCursor'),
    nextCursor: outText().describe('The position after this page; pass it as ?cursor= or commit it'),
  })
  .meta({ id: 'PollPage' });

export const pollCommitResponse = z.object({ webhookId: idString('wh'), cursor: outText() }).meta({ id: 'PollCommit' });

export const pollCredentialResponse = z
  .object({
    webhookId: idString('wh'),
    pollCredential: outText().describe('whpoll_…, shown this once; the one it replaces stops working at once'),
  })
  .meta({ id: 'PollCredential' });

export type PollQuery = z.infer<typeof pollQuery>;
