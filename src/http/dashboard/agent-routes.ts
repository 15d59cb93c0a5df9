import type Router from '@koa/router';
import type { Context } from 'koa';
import { errorOf } from './api-client.js';
import type { Agent, Grant, Key, KeyWithSecret, Page } from './api-types.js';
import { agentsPage, grantsPage, keySecretPage, type AgentKeyForm } from './agent-views.js';
import { noticeOf, refusal, show, type PageSetup, type Signed } from './pages.js';

// Agents and their per-agent keys, key rotation, and OAuth grants: each action the API request a client would send
// (POST /v1/agents/:agentId/api-keys, POST /v1/api_keys/:keyId/rotate, DELETE /v1/oauth/grants/:grantId).

const NOTICES: Record<string, string> = {
  deactivated: 'The key is deactivated.',
  'grant-revoked': 'The grant is revoked with its tokens.',
};

export function registerAgentPages(router: Router, { page, signedForm, id, apiAction }: PageSetup) {
  async function listPage(ctx: Context, s: Signed, form: AgentKeyForm = {}, status = 200) {
    const [agents, keys] = await Promise.all([
      s.api<Page<Agent>>('GET', '/v1/agents?limit=100'),
      s.api<Page<Key>>('GET', '/v1/api_keys?limit=100'),
    ]);
    if (agents.status !== 200) throw refusal(agents, 'The agents');
    if (keys.status !== 200) throw refusal(keys, 'The keys');
    const note = noticeOf(ctx, NOTICES);
    show(
      ctx,
      s.viewer,
      'Agents and their keys',
      agentsPage(s.viewer, agents.body.data, keys.body.data, form, note),
      status,
    );
  }

  router.get(
    '/agents',
    page((ctx, s) => listPage(ctx, s)),
  );
  router.post(
    '/agents/:agentId/keys',
    page(async (ctx, s) => {
      const fields = await signedForm(ctx, s);
      const agentId = id(ctx, 'agentId');
      const name = fields.get('name')?.[0] ?? '';
      const scopes = fields.get('scopes') ?? [];
      const res = await s.api<KeyWithSecret>('POST', `/v1/agents/${agentId}/api-keys`, { name, scopes });
      if (res.status === 400) return listPage(ctx, s, { agentId, name, scopes, error: errorOf(res) }, 400);
      if (res.status !== 201) throw refusal(res, 'This agent');
      const what = `The key ${res.body.name} reaches this agent only.`;
      show(ctx, s.viewer, 'New per-agent key', keySecretPage(what, res.body.key ?? '', '/dashboard/agents'), 201);
    }),
  );
  router.post(
    '/keys/:keyId/rotate',
    page(async (ctx, s) => {
      await signedForm(ctx, s);
      const res = await s.api<KeyWithSecret & { rotationGraceUntil?: string }>(
        'POST',
        `/v1/api_keys/${id(ctx, 'keyId')}/rotate`,
      );
      if (res.status !== 200) throw refusal(res, 'This key');
      const grace = res.body.rotationGraceUntil ? ` The old secret works until ${res.body.rotationGraceUntil}.` : '';
      const back = ctx.get('referer').includes('/dashboard/agents') ? '/dashboard/agents' : '/dashboard/keys';
      show(ctx, s.viewer, 'Key rotated', keySecretPage(`A new secret is issued.${grace}`, res.body.key ?? '', back));
    }),
  );

  router.get(
    '/grants',
    page(async (ctx, s) => {
      let grants: Grant[] | null = null;
      if (s.viewer.canAdmin) {
        const res = await s.api<Page<Grant>>('GET', '/v1/oauth/grants?limit=100');
        if (res.status !== 200) throw refusal(res, 'The grants');
        grants = res.body.data;
      }
      const note = noticeOf(ctx, NOTICES);
      show(ctx, s.viewer, 'OAuth grants', grantsPage(s.viewer, grants, note));
    }),
  );
  router.post(
    '/grants/:grantId/revoke',
    apiAction({
      method: 'DELETE',
      path: (ctx) => `/v1/oauth/grants/${id(ctx, 'grantId')}`,
      ok: 204,
      what: 'This grant',
      then: () => '/dashboard/grants?notice=grant-revoked',
    }),
  );
}
