import { adminOnly, authenticated, publicAccess, requireScope } from '../../auth/access.js';
import { login, logout } from '../../auth/sessions.service.js';
import { accountPatch, loginInput, memberInput, signupInput, toAccountResponse, toUserResponse } from '../../accounts/accounts.schema.js';
import { addMember, getAccount, listMembers, signup, updateAccountPolicy } from '../../accounts/accounts.service.js';
import type { Deps } from '../../platform/deps.js';
import { mapPage, pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { iso } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { clientIp } from '../client-ip.js';
import type { AppContext } from '../context.js';
import { principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

const sessionBody = (s: { token: string; expiresAt: Date }) => ({ token: s.token, expiresAt: iso(s.expiresAt) });

export function registerAuthRoutes(api: ApiRouter, deps: Deps) {
  const ip = (ctx: AppContext) => clientIp(ctx, deps.config.trustProxyHops);

  api.post('/v1/auth/signup', publicAccess, async (ctx) => {
    const { account, user, session } = await signup(deps, parseInput(signupInput, ctx.request.body));
    ctx.status = 201;
    ctx.body = { account: toAccountResponse(account), user: toUserResponse(user), session: sessionBody(session) };
  });

  api.post('/v1/auth/login', publicAccess, async (ctx) => {
    const input = parseInput(loginInput, ctx.request.body);
    const { user, session } = await login(deps, input.email, input.password);
    ctx.body = { user: toUserResponse(user), session: sessionBody(session) };
  });

  api.post('/v1/auth/logout', authenticated, async (ctx) => {
    const principal = principalOf(ctx);
    if (principal.type !== 'session') throw new AppError('admin_session_required', 'Logout ends a session; API keys are deactivated instead');
    await logout(deps, principal);
    ctx.status = 204;
  });

  api.get('/v1/account', requireScope('read:account'), async (ctx) => {
    ctx.body = toAccountResponse(await getAccount(deps, principalOf(ctx).accountId));
  });

  api.patch('/v1/account', adminOnly, async (ctx) => {
    const account = await updateAccountPolicy(deps, principalOf(ctx), parseInput(accountPatch, ctx.request.body), ip(ctx));
    ctx.body = toAccountResponse(account);
  });

  api.get('/v1/team/members', adminOnly, async (ctx) => {
    const page = await listMembers(deps, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
    ctx.body = mapPage(page, toUserResponse);
  });

  api.post('/v1/team/members', adminOnly, async (ctx) => {
    const user = await addMember(deps, principalOf(ctx), parseInput(memberInput, ctx.request.body), ip(ctx));
    ctx.status = 201;
    ctx.body = toUserResponse(user);
  }, idempotent());
}
