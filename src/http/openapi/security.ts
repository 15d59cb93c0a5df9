import type { Access } from '../../auth/access.js';

// The three bearer credentials, and which of them (with which scope) each operation accepts. The scopes of an
// http bearer scheme are not OAuth scopes: OpenAPI 3.1 lets a requirement list them as "roles", which is what
// they are here (the scope a key must hold). `x-access` repeats the declaration for tools.

export const securitySchemes = {
  session: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ca_sess_…',
    description:
      'A session token from POST /v1/auth/signup or /v1/auth/login (12 h). Not limited by scopes; owner/admin sessions may do admin actions.',
  },
  accountKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ca_acct_…',
    description:
      'An account key: reaches the whole account within its account scopes (resource:action), capped at member level.',
  },
  agentKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ca_agt_…',
    description:
      'A per-agent key: reaches only /v1/agents/{its agent}/… within its agent scopes (agent:resource:action).',
  },
  portalToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ca_portal_…',
    description:
      "A portal link's token (POST /v1/portal-links): reaches only /v1/portal/…, for the subscriptions of its tenant.",
  },
  pollCredential: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'whpoll_…',
    description:
      "A poll subscription's own credential (shown once, at creation or POST /v1/webhooks/{webhookId}/poll/credential): polls that subscription and nothing else.",
  },
  inboundToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Inbound-Token',
    description: "An inbox's ingest token, shown once when the inbox is created.",
  },
} as const;

type Requirement = Record<string, string[]>;

/** The security requirements of an access declaration: any one of them suffices. */
export function securityOf(access: Access): Requirement[] {
  switch (access.kind) {
    case 'public':
      return [];
    case 'authenticated':
      return [{ session: [] }, { accountKey: [] }];
    case 'admin':
      return [{ session: ['owner', 'admin'] }];
    case 'scope':
      return [
        { session: [] },
        { accountKey: [access.scope] },
        ...(access.agentScope ? [{ agentKey: [access.agentScope] }] : []),
      ];
    case 'agentKey':
      return [{ agentKey: [] }];
    case 'agentKeyMinting':
      return [{ session: ['owner', 'admin'] }, { accountKey: ['write:agents'] }];
  }
}

/** The same, in words, for the operation's description. */
export function describeAccess(access: Access): string {
  switch (access.kind) {
    case 'public':
      return 'Public: no credential.';
    case 'authenticated':
      return 'Any session or account key of the account; per-agent keys get 403 agent_forbidden.';
    case 'admin':
      return 'An owner or admin session only; keys and member sessions get 403 admin_session_required.';
    case 'scope': {
      const agent = access.agentScope
        ? ` / \`${access.agentScope}\` (a per-agent key, on its own agent's \`{${access.agentParam ?? 'agentId'}}\` only)`
        : '; per-agent keys get 403 agent_forbidden';
      return `Scope (account / agent): \`${access.scope}\`${agent}. Sessions need no scope.`;
    }
    case 'agentKey':
      return `Only the per-agent key of the agent in \`{${access.param}}\`; scopes are checked per tool.`;
    case 'agentKeyMinting':
      return "An owner or admin session; or, when the account's agentKeyMinting policy is `account_keys`, an account key holding `write:agents`. Per-agent keys get 403.";
  }
}

/** The declaration, machine-readable. */
export function accessExtension(access: Access): Record<string, unknown> {
  return { ...access };
}
