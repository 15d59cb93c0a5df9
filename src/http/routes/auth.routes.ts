import { adminOnly, authenticated, publicAccess, requireScope } from '../../auth/access.js';
import { login, logout } from '../../accounts/sessions.service.js';
import { limitSignIn } from '../../auth/sign-in-limits.js';
import { z } from 'zod';
import {
  accountPatch,
  accountResponse,
  loginInput,
  memberInput,
  sessionResponse,
  signupInput,
  toAccountResponse,
  toUserResponse,
  userResponse,
} from '../../accounts/accounts.schema.js';
import { addMember, getAccount, listMembers, signup, updateAccountPolicy } from '../../accounts/accounts.service.js';
import type { Deps } from '../../app/deps.js';
import { pageOf } from '../../platform/output.js';
import { mapPage, pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { iso } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { clientIp } from '../client-ip.js';
import type { AppContext } from '../context.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

const sessionBody = (s: { token: string; expiresAt: Date }) => ({ token: s.token, expiresAt: iso(s.expiresAt) });

const tag = 'Auth';
const signupResponse = z.object({ account: accountResponse, user: userResponse, session: sessionResponse });
const loginResponse = z.object({ user: userResponse, session: sessionResponse });
const createdAt = '2026-11-01T09:30:00.000Z';
const session = { token: 'ca_sess_<SESSION_TOKEN>', expiresAt: '2026-11-01T21:30:00.000Z' };
const user = {
  id: 'usr_2Wn8RkT0aQpZs5Lc7Yb1',
  accountId: 'acct_9Hq3VxM1eJd6Fu0Ro4Ga',
  email: 'ada@example.com',
  role: 'owner',
  createdAt,
};

export function registerAuthRoutes(api: ApiRouter, deps: Deps) {
  // Sign-in is public: no authentication has read the client's address yet.
  const ip = (ctx: AppContext) => clientIp(ctx, deps.config.trustProxyHops);

  api.post(
    '/v1/auth/signup',
    publicAccess,
    {
      operationId: 'signUp',
      summary: 'Sign up: a new account and its owner',
      tag,
      body: signupInput,
      response: signupResponse,
      status: 201,
      errors: ['signup_disabled', 'conflict', 'rate_limited'],
      examples: {
        request: { accountName: 'Acme', email: 'ada@example.com', password: '<PASSWORD>' },
        response: {
          account: {
            id: user.accountId,
            name: 'Acme',
            plan: 'free',
            creditsBalance: 1000,
            agentKeyMinting: 'admins',
            lowCreditsThreshold: 0,
            createdAt,
          },
          user,
          session,
        },
      },
    },
    async (ctx) => {
      const input = parseInput(signupInput, ctx.request.body);
      const who = { ip: ip(ctx), email: input.email };
      const { account, user, session } = await limitSignIn(deps, who, () => signup(deps, input));
      ctx.status = 201;
      ctx.body = { account: toAccountResponse(account), user: toUserResponse(user), session: sessionBody(session) };
    },
  );

  api.post(
    '/v1/auth/login',
    publicAccess,
    {
      operationId: 'logIn',
      summary: 'Log in',
      tag,
      body: loginInput,
      response: loginResponse,
      errors: ['invalid_credential', 'rate_limited'],
      examples: { request: { email: 'ada@example.com', password: '<PASSWORD>' }, response: { user, session } },
    },
    async (ctx) => {
      const input = parseInput(loginInput, ctx.request.body);
      const who = { ip: ip(ctx), email: input.email };
      const { user, session } = await limitSignIn(deps, who, () => login(deps, input.email, input.password));
      ctx.body = { user: toUserResponse(user), session: sessionBody(session) };
    },
  );

  api.post(
    '/v1/auth/logout',
    authenticated,
    {
      operationId: 'logOut',
      summary: 'Log out (end this session)',
      tag,
      response: null,
      errors: ['admin_session_required'],
    },
    async (ctx) => {
      const principal = principalOf(ctx);
      if (principal.type !== 'session')
        throw new AppError('admin_session_required', 'Logout ends a session; API keys are deactivated instead');
      await logout(deps, principal);
      ctx.status = 204;
    },
  );

  api.get(
    '/v1/account',
    requireScope('read:account'),
    { operationId: 'getAccount', summary: 'Get the account', tag, response: accountResponse },
    async (ctx) => {
      ctx.body = toAccountResponse(await getAccount(deps, principalOf(ctx).accountId));
    },
  );

  api.patch(
    '/v1/account',
    adminOnly,
    {
      operationId: 'updateAccount',
      summary: 'Change the account policy',
      tag,
      body: accountPatch,
      response: accountResponse,
      examples: { request: { agentKeyMinting: 'account_keys', lowCreditsThreshold: 100 } },
    },
    async (ctx) => {
      const account = await updateAccountPolicy(deps, callerOf(ctx), parseInput(accountPatch, ctx.request.body));
      ctx.body = toAccountResponse(account);
    },
  );

  api.get(
    '/v1/team/members',
    adminOnly,
    {
      operationId: 'listTeamMembers',
      summary: 'List team members',
      tag,
      query: pageQuery,
      response: pageOf(userResponse),
    },
    async (ctx) => {
      const page = await listMembers(deps, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
      ctx.body = mapPage(page, toUserResponse);
    },
  );

  api.post(
    '/v1/team/members',
    adminOnly,
    {
      operationId: 'addTeamMember',
      summary: 'Add a team member',
      tag,
      body: memberInput,
      response: userResponse,
      status: 201,
      errors: ['conflict'],
      examples: { request: { email: 'grace@example.com', password: '<PASSWORD>', role: 'member' } },
    },
    async (ctx) => {
      const user = await addMember(deps, callerOf(ctx), parseInput(memberInput, ctx.request.body));
      ctx.status = 201;
      ctx.body = toUserResponse(user);
    },
    idempotent(),
  );
}
