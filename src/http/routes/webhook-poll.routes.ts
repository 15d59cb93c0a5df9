import { authorize, publicAccess, requireScope } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import type { ErrorCode } from '../../platform/errors.js';
import { parseInput } from '../../platform/validation.js';
import { looksLikePollCredential } from '../../webhooks/poll-credential.js';
import {
  commitPollInput,
  pollCommitResponse,
  pollCredentialResponse,
  pollQuery,
  pollResponse,
} from '../../webhooks/poll.schema.js';
import {
  commitPoll,
  issuePollCredential,
  pollDeliveries,
  pollSubscription,
  revokePollCredential,
  type PollAuth,
} from '../../webhooks/poll.service.js';
import type { AppContext } from '../context.js';
import { authenticate, bearerToken, callerOf } from '../middleware/authenticate.js';
import { withResourceChallenge } from '../oauth/challenge.js';
import type { ApiRouter } from '../router.js';

// Polling endpoints (docs/webhook-polling.md#polling-endpoints): a poll subscription's consumer takes its deliveries
// here, with the subscription's own credential (whpoll_…) or an account credential holding read:webhooks. The
// credential is resolved on every request, so a revoked or replaced one is refused at once.

const tag = 'Webhooks';
const readWebhooks = requireScope('read:webhooks');
const polling = {
  security: [{ pollCredential: [] }, { session: [] }, { accountKey: ['read:webhooks'] }] as Array<
    Record<string, string[]>
  >,
  errors: [
    'missing_credential',
    'invalid_credential',
    'key_expired',
    'key_deactivated',
    'session_expired',
    'ip_not_allowed',
    'insufficient_scope',
    'agent_forbidden',
    'not_found',
    'conflict',
  ] as ErrorCode[],
};

export function registerWebhookPollRoutes(api: ApiRouter, deps: Deps) {
  const param = (ctx: AppContext, name: string) => String((ctx.params as Record<string, string>)[name]);

  /** The poll's credential: the subscription's own, else an account credential checked like read:webhooks. */
  const pollAuth = async (ctx: AppContext): Promise<PollAuth> => {
    const token = bearerToken(ctx);
    if (looksLikePollCredential(token)) return { credential: token };
    try {
      const principal = await authenticate(deps, ctx);
      authorize(principal, readWebhooks, (ctx.params ?? {}) as Record<string, string>);
      return { accountId: principal.accountId };
    } catch (err) {
      throw withResourceChallenge(err, ctx.state.publicUrl, ctx.path);
    }
  };
  const subscriptionOf = async (ctx: AppContext) =>
    pollSubscription(deps, await pollAuth(ctx), param(ctx, 'webhookId'));

  api.get(
    '/v1/webhooks/:webhookId/poll',
    publicAccess,
    {
      operationId: 'pollWebhookDeliveries',
      summary: 'Poll a poll subscription for its deliveries',
      tag,
      query: pollQuery,
      response: pollResponse,
      description:
        "The deliveries after `cursor` (without one: after the committed cursor, or from the start) in the subscription's log order, each with the headers a POST would carry, signed with the subscription's secret. A delivery counts as delivered (succeeded, with an attempt) when a poll first returns it. Credential: the subscription's own `whpoll_…`, or a session or account key with read:webhooks.",
      ...polling,
      errors: [...polling.errors, 'validation_error'],
    },
    async (ctx) => {
      const webhook = await subscriptionOf(ctx);
      ctx.body = await pollDeliveries(deps, webhook, parseInput(pollQuery, ctx.query));
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/poll/commit',
    publicAccess,
    {
      operationId: 'commitWebhookPoll',
      summary: "Commit a poll subscription's cursor",
      tag,
      body: commitPollInput,
      response: pollCommitResponse,
      description:
        'Polls without a cursor continue after the committed one. Any cursor this subscription returned may be committed, an earlier one too (to read again).',
      examples: { request: { cursor: 'eyJ3Ijoid2hfNEZwN1hjTjJiUXo5TG0xVHI4WXMiLCJwIjo0Mn0' } },
      ...polling,
    },
    async (ctx) => {
      const webhook = await subscriptionOf(ctx);
      ctx.body = await commitPoll(deps, webhook, parseInput(commitPollInput, ctx.request.body).cursor);
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/poll/credential',
    requireScope('write:webhooks'),
    {
      operationId: 'rotateWebhookPollCredential',
      summary: 'Issue a new poll credential (the old one stops at once)',
      tag,
      response: pollCredentialResponse,
      errors: ['conflict'],
    },
    async (ctx) => {
      ctx.body = await issuePollCredential(deps, callerOf(ctx), param(ctx, 'webhookId'));
    },
  );

  api.delete(
    '/v1/webhooks/:webhookId/poll/credential',
    requireScope('write:webhooks'),
    {
      operationId: 'revokeWebhookPollCredential',
      summary: 'Revoke the poll credential',
      tag,
      response: null,
      errors: ['conflict'],
      description: 'Polls with it answer 401 at once; account credentials with read:webhooks still poll.',
    },
    async (ctx) => {
      await revokePollCredential(deps, callerOf(ctx), param(ctx, 'webhookId'));
      ctx.status = 204;
    },
  );
}
