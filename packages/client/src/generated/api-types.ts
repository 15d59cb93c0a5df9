// Generated from the service's OpenAPI document by npm run client:types at the repository root. Do not edit.
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Public: no credential.
         */
        get: operations["checkLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: Postgres and Redis answer
         * @description 503 (with the same body) while Postgres or Redis does not answer, and from the moment the process starts shutting down (status "draining"), so that a load balancer sends new requests elsewhere.
         *
         *     Public: no credential.
         */
        get: operations["checkReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign up: a new account and its owner
         * @description Public: no credential.
         */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in
         * @description Public: no credential.
         */
        post: operations["logIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out (end this session)
         * @description Any session or account key of the account; per-agent keys get 403 agent_forbidden.
         */
        post: operations["logOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the account
         * @description Scope (account / agent): `read:account`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the account policy
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/v1/team/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List team members
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        get: operations["listTeamMembers"];
        put?: never;
        /**
         * Add a team member
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        post: operations["addTeamMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit log
         * @description Scope (account / agent): `read:account`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notifications
         * @description Scope (account / agent): `read:account`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents
         * @description Scope (account / agent): `read:agents`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listAgents"];
        put?: never;
        /**
         * Create an agent
         * @description Scope (account / agent): `write:agents`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an agent
         * @description Scope (account / agent): `read:agents` / `agent:config:read` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an agent
         * @description `config` is a JSON merge patch (RFC 7396). A per-agent key may send only `config` (else 403 insufficient_scope).
         *
         *     Scope (account / agent): `write:agents` / `agent:config:write` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         */
        patch: operations["updateAgent"];
        trace?: never;
    };
    "/v1/agents/{agentId}/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an agent's contacts
         * @description Scope (account / agent): `read:contacts` / `agent:conversations:read` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         */
        get: operations["listAgentContacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an agent's drafts
         * @description Scope (account / agent): `read:messages` / `agent:conversations:read` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         */
        get: operations["listAgentDrafts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an agent's conversations
         * @description Scope (account / agent): `read:messages` / `agent:conversations:read` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         */
        get: operations["listAgentConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an agent's activity
         * @description Scope (account / agent): `read:activity` / `agent:activity:read` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         */
        get: operations["listAgentActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a run
         * @description Scope (account / agent): `read:activity` / `agent:activity:read` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         */
        get: operations["getAgentRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trigger an agent (chat)
         * @description Queues a run; its reply appears in the agent's conversations and activity. Costs 5 credits.
         *
         *     Scope (account / agent): `trigger:agents` / `agent:trigger` (a per-agent key, on its own agent's `{agentId}` only). Sessions need no scope.
         *
         *     Money-spending: charges credits; uncapped keys are rate-limited by plan.
         */
        post: operations["triggerAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account-wide activity
         * @description Scope (account / agent): `read:activity`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts
         * @description Scope (account / agent): `read:contacts`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listContacts"];
        put?: never;
        /**
         * Create a contact
         * @description Scope (account / agent): `write:contacts`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a contact
         * @description Scope (account / agent): `read:contacts`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getContact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a contact
         * @description Scope (account / agent): `write:contacts`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        patch: operations["updateContact"];
        trace?: never;
    };
    "/v1/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inboxes
         * @description Scope (account / agent): `read:inboxes`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listInboxes"];
        put?: never;
        /**
         * Create an inbox
         * @description Scope (account / agent): `write:inboxes`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["createInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inboxId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an inbox
         * @description Scope (account / agent): `read:inboxes`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getInbox"];
        put?: never;
        post?: never;
        /**
         * Delete an inbox
         * @description Scope (account / agent): `write:inboxes`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        delete: operations["deleteInbox"];
        options?: never;
        head?: never;
        /**
         * Update an inbox
         * @description Scope (account / agent): `write:inboxes`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        patch: operations["updateInbox"];
        trace?: never;
    };
    "/v1/inbound/{inboxId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive an inbound message
         * @description Authenticated by the inbox's ingest token in X-Inbound-Token, not by a bearer credential.
         */
        post: operations["receiveInboundMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List messages
         * @description Scope (account / agent): `read:messages`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listMessages"];
        put?: never;
        /**
         * Create a draft (does not send)
         * @description Scope (account / agent): `write:messages`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["createDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a message
         * @description Scope (account / agent): `read:messages`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{messageId}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a draft
         * @description Queues the draft for sending through the account's integration or the platform transport. Costs 1 credit (email) or 2 (SMS).
         *
         *     Scope (account / agent): `messages:send`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         *
         *     Money-spending: charges credits; uncapped keys are rate-limited by plan.
         */
        post: operations["sendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List drafts
         * @description Scope (account / agent): `read:messages`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listDrafts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversations
         * @description Scope (account / agent): `read:messages`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List integrations (every provider, connected or not)
         * @description Scope (account / agent): `integrations:read`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listIntegrations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect (or reconfigure) an integration
         * @description The body is the `smtp` settings for /integrations/smtp and the `sms-http` settings for /integrations/sms-http. 201 when newly connected, 200 when reconfigured. Secrets are sealed and never returned.
         *
         *     Scope (account / agent): `integrations:manage`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["connectIntegration"];
        /**
         * Disconnect an integration
         * @description Scope (account / agent): `integrations:manage`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        delete: operations["disconnectIntegration"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sending domains
         * @description Scope (account / agent): `read:domains`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listDomains"];
        put?: never;
        /**
         * Add a sending domain
         * @description Scope (account / agent): `write:domains`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["addDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains/{domainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a sending domain
         * @description Scope (account / agent): `read:domains`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getDomain"];
        put?: never;
        post?: never;
        /**
         * Remove a sending domain
         * @description Scope (account / agent): `write:domains`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        delete: operations["removeDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains/{domainId}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the DNS records now
         * @description Scope (account / agent): `write:domains`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["verifyDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Account-wide counts
         * @description Scope (account / agent): `read:account`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's recent events
         * @description Scope (account / agent): `read:account`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listFeedEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the event catalog
         * @description Every event a subscription may name, whether it is produced yet, and the JSON Schema of its delivery (the same zod source as the `webhooks` of this document).
         *
         *     Any session or account key of the account; per-agent keys get 403 agent_forbidden.
         */
        get: operations["listEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Account MCP endpoint
         * @description Model Context Protocol, Streamable HTTP, stateless. Send `Accept: application/json, text/event-stream`. `tools/list` shows the tools the credential allows. OAuth access tokens for this resource are accepted too (see /.well-known/oauth-protected-resource).
         *
         *     Any session or account key of the account; per-agent keys get 403 agent_forbidden.
         */
        post: operations["sendAccountMcpMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Per-agent MCP endpoint
         * @description Model Context Protocol, Streamable HTTP, stateless. Send `Accept: application/json, text/event-stream`. `tools/list` shows the tools the credential allows. OAuth access tokens for this resource are accepted too (see /.well-known/oauth-protected-resource).
         *
         *     Only the per-agent key of the agent in `{agentId}`; scopes are checked per tool.
         */
        post: operations["sendAgentMcpMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server/oauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization server metadata (RFC 8414)
         * @description Public: no credential.
         */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration/oauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization server metadata (OpenID Connect Discovery form)
         * @description Public: no credential.
         */
        get: operations["getOpenIdConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Protected-resource metadata of /v1/mcp (RFC 9728)
         * @description Public: no credential.
         */
        get: operations["getAccountMcpResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/v1/agents/{agentId}/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Protected-resource metadata of an agent's MCP endpoint (RFC 9728)
         * @description Public: no credential.
         */
        get: operations["getAgentMcpResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Protected-resource metadata (root form: /v1/mcp)
         * @description Public: no credential.
         */
        get: operations["getMcpResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth grants
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        get: operations["listOAuthGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/grants/{grantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an OAuth grant and its tokens
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        delete: operations["revokeOAuthGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List key metadata
         * @description Scope (account / agent): `read:api_keys`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an account key
         * @description The secret (`key`) is shown in this answer only.
         *
         *     An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        post: operations["createAccountKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a key's metadata
         * @description Scope (account / agent): `read:api_keys`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /**
         * Delete a key (effective on the next request)
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        /**
         * Edit a key (name, allowedIps, expiresAt, spendCapCredits)
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        patch: operations["updateApiKey"];
        trace?: never;
    };
    "/v1/api_keys/{keyId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a key
         * @description A new secret, shown once; the old one works until `rotationGraceUntil` (requests made with it get Deprecation and Sunset headers).
         *
         *     An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{keyId}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate a key (effective on the next request)
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        post: operations["deactivateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a per-agent key
         * @description keyType and agentId come from the server. Scopes default to the agent read scopes; account scopes, `*` and write:api_keys are refused with 400 invalid_scope. Also answers at POST /v1/agents/{agentId}/api_keys, the spelling of the other key routes (docs/adr/0047-key-route-spelling.md).
         *
         *     An owner or admin session; or, when the account's agentKeyMinting policy is `account_keys`, an account key holding `write:agents`. Per-agent keys get 403.
         */
        post: operations["createAgentKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/key-rate-limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The named rate limits shared by an agent's per-agent keys
         * @description Scope (account / agent): `read:api_keys`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getAgentKeyRateLimits"];
        /**
         * Set the named rate limits shared by an agent's per-agent keys
         * @description Each limit counts every request made with any of the agent's per-agent keys; a key's own limits apply as well. An empty list removes them.
         *
         *     An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        put: operations["updateAgentKeyRateLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{keyId}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A key's requests per hour, by outcome
         * @description Scope (account / agent): `read:api_keys`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getApiKeyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}/api_keys/{keyId}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A per-agent key's requests per hour, by outcome
         * @description The key must be one of this agent's per-agent keys (else 404).
         *
         *     Scope (account / agent): `read:api_keys`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getAgentKeyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the plan, balance and usage
         * @description Scope (account / agent): `read:billing`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add credits
         * @description An owner or admin session only; keys and member sessions get 403 admin_session_required.
         */
        post: operations["addCredits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open a stream destination (server-sent events)
         * @description A `text/event-stream` that is a subscription of its own kind for as long as it stays open: first an `opened` event (this schema: the subscription id and the session secret its deliveries are signed with, or with `?signatureScheme=ed25519` the public key that verifies them), then one `delivery` event per attempt (components.schemas.WebhookStreamDelivery), each to be answered with POST /v1/webhook-streams/{webhookId}/reports. Closing the connection deletes the subscription. At most 5 open per account (429 beyond).
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["connectWebhookStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-streams/{webhookId}/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report what the local receiver answered to one stream delivery
         * @description The attempt is recorded with this status and duration (or error) through the same retry policy as an HTTP delivery. A report for a token that is no longer awaited (past WEBHOOK_TIMEOUT_MS) is accepted and changes nothing.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["sendWebhookStreamReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/test-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event of any type with a payload of your choosing to the matching subscriptions
         * @description The payload must be valid against the event type's schema (GET /v1/event-types, `payloadSchema`); the event is delivered like one the platform emitted, to every active subscription of the account that asks for it (`switchboard trigger`).
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["sendTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description Scope (account / agent): `read:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Subscribe a URL to events
         * @description The destination kinds (docs/webhooks.md#destination-kinds): http: POSTed to url; poll: taken by its consumer with GET /v1/webhooks/{webhookId}/poll (url is that path) and its poll credential; rabbitmq (with `exchange`, `routingKey`): published to `exchange` with `routingKey` on the amqp(s):// broker at url; nats (with `subject`): published to the JetStream `subject` on the nats:// or tls:// server at url; redis (with `streamKey`, `maxLength`): appended with XADD (MAXLEN ~ `maxLength`) to the stream `streamKey` on the redis:// or rediss:// server at url. An http URL must be a public https:// address; a URL that carries a credential (a broker's) is sealed and never returned with its password. A poll subscription has no URL: the consumer polls GET /v1/webhooks/{webhookId}/poll with `pollCredential` (whpoll_…), shown in this answer only. The signing secret (`secret`) is shown in this answer only; with `signatureScheme: "ed25519"` there is none to show: `publicKey` (whpk_…, readable on every GET) verifies the deliveries, and a `legacySecret` is refused. With `ordering: "key"`, every event type named must have an ordering key (GET /v1/event-types `orderingKey`), else 400 naming the type.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description Scope (account / agent): `read:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook subscription
         * @description A new `signatureScheme` makes a new key of that scheme (a new whsec_ is in `secret`, shown this once; a new ed25519 key shows its `publicKey`); the old key keeps signing beside it for 24 h, as after a rotation.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing key (24 h overlap)
         * @description A new key of the subscription's own scheme: a whsec_ (`secret`, shown this once) or an ed25519 pair (`publicKey`; `secret` is null). The old key keeps signing beside the new one until `previousSecretExpiresAt`. `signatureScheme`, when sent, must be the subscription's: another is a 400 naming it, and nothing changes.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a subscription (zeroes its failure count)
         * @description With `recoverSince`, the deliveries that failed since then are queued again.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["enableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a subscription by hand
         * @description No delivery is attempted until POST /v1/webhooks/:id/enable; pending deliveries stop at their next attempt (enable with `recoverSince` sends them again). Disabling a disabled subscription changes nothing.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["disableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List delivery attempts
         * @description Scope (account / agent): `read:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listWebhookAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Endpoint health over a window
         * @description Scope (account / agent): `read:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getWebhookStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries
         * @description Scope (account / agent): `read:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery with its request body
         * @description `envelope` is the body every attempt of this delivery sends: `JSON.stringify(envelope)` is the exact text the signature covers.
         *
         *     Scope (account / agent): `read:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver again (same envelope id)
         * @description Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event to this subscription
         * @description Always a webhook.test event; a body, if sent, is empty: a field such as `event` is refused.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["sendWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Poll a poll subscription for its deliveries
         * @description The deliveries after `cursor` (without one: after the committed cursor, or from the start) in the subscription's log order, each with the headers a POST would carry, signed with the subscription's secret. A delivery counts as delivered (succeeded, with an attempt) when a poll first returns it. Credential: the subscription's own `whpoll_…`, or a session or account key with read:webhooks.
         */
        get: operations["pollWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/poll/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Commit a poll subscription's cursor
         * @description Polls without a cursor continue after the committed one. Any cursor this subscription returned may be committed, an earlier one too (to read again).
         */
        post: operations["commitWebhookPoll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/poll/credential": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a new poll credential (the old one stops at once)
         * @description Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["rotateWebhookPollCredential"];
        /**
         * Revoke the poll credential
         * @description Polls with it answer 401 at once; account credentials with read:webhooks still poll.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        delete: operations["revokeWebhookPollCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List portal links
         * @description Scope (account / agent): `read:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        get: operations["listPortalLinks"];
        put?: never;
        /**
         * Create a portal link for the subscriptions of one tenant
         * @description The link (`url`, with its `token`) is shown in this answer only. Its holder manages the subscriptions whose `tenant` is this one, and only those, until it expires or is revoked.
         *
         *     Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["createPortalLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal-links/{linkId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a portal link (at once)
         * @description Scope (account / agent): `write:webhooks`; per-agent keys get 403 agent_forbidden. Sessions need no scope.
         */
        post: operations["revokePortalLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A portal: its tenant's subscriptions */
        get: operations["listPortalWebhooks"];
        put?: never;
        /** A portal: subscribe a URL (within the events the link allows) */
        post: operations["createPortalWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A portal: what its link reaches */
        get: operations["getPortalScope"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A portal: one subscription */
        get: operations["getPortalWebhook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** A portal: change a subscription's URL, events, description or signature scheme */
        patch: operations["updatePortalWebhook"];
        trace?: never;
    };
    "/v1/portal/webhooks/{webhookId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A portal: rotate a subscription's signing key */
        post: operations["rotatePortalWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/webhooks/{webhookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A portal: a subscription's deliveries */
        get: operations["listPortalWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/webhooks/{webhookId}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A portal: a delivery with its request body */
        get: operations["getPortalWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/webhooks/{webhookId}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A portal: a subscription's delivery attempts */
        get: operations["listPortalWebhookAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A portal: deliver again (same envelope id) */
        post: operations["redeliverPortalWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Public: no credential.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "message.received": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new message was received by an agent
         * @description A new message was received by an agent. Status: emitted. Ordering key: payload.conversationId.
         */
        post: operations["deliverMessageReceivedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An agent sent a message
         * @description An agent sent a message. Status: emitted. Ordering key: payload.conversationId.
         */
        post: operations["deliverMessageSentEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.drafted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A draft message was created
         * @description A draft message was created. Status: emitted. Ordering key: payload.conversationId.
         */
        post: operations["deliverMessageDraftedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "inbox.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An inbox was created
         * @description An inbox was created. Status: emitted. Ordering key: payload.id.
         */
        post: operations["deliverInboxCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "inbox.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An inbox's configuration changed
         * @description An inbox's configuration changed. Status: planned (may be subscribed to; not produced yet). Ordering key: payload.id.
         */
        post: operations["deliverInboxUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "inbox.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An inbox was deleted
         * @description An inbox was deleted. Status: emitted. Ordering key: payload.id.
         */
        post: operations["deliverInboxDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A contact was created
         * @description A contact was created. Status: emitted. Ordering key: payload.id.
         */
        post: operations["deliverContactCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A contact was updated
         * @description A contact was updated. Status: emitted. Ordering key: payload.id.
         */
        post: operations["deliverContactUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "agent.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An agent's name, status or configuration changed
         * @description An agent's name, status or configuration changed. Status: emitted. Ordering key: payload.id.
         */
        post: operations["deliverAgentUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.delivered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A sent message was delivered
         * @description A sent message was delivered. Status: planned (may be subscribed to; not produced yet). Ordering key: payload.conversationId.
         */
        post: operations["deliverMessageDeliveredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.bounced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A sent message bounced
         * @description A sent message bounced. Status: planned (may be subscribed to; not produced yet). Ordering key: payload.conversationId.
         */
        post: operations["deliverMessageBouncedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.complained": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A recipient marked a message as spam
         * @description A recipient marked a message as spam. Status: planned (may be subscribed to; not produced yet). Ordering key: payload.conversationId.
         */
        post: operations["deliverMessageComplainedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A message was rejected before delivery
         * @description A message was rejected before delivery. Status: planned (may be subscribed to; not produced yet). Ordering key: payload.conversationId.
         */
        post: operations["deliverMessageRejectedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "escalation.triggered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An agent escalated a conversation to a person
         * @description An agent escalated a conversation to a person. Status: planned (may be subscribed to; not produced yet). No ordering key: an ordered subscription cannot name it.
         */
        post: operations["deliverEscalationTriggeredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A webhook subscription was disabled (sent to the account's other subscriptions)
         * @description A webhook subscription was disabled (sent to the account's other subscriptions). Status: emitted. Ordering key: payload.webhookId.
         */
        post: operations["deliverWebhookDisabledEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.delivery_exhausted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A webhook delivery failed every retry (sent to the account's other subscriptions)
         * @description A webhook delivery failed every retry (sent to the account's other subscriptions). Status: emitted. Ordering key: payload.webhookId.
         */
        post: operations["deliverWebhookDeliveryExhaustedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "api_key.expiring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An API key expires within seven days (sent once per expiry date)
         * @description An API key expires within seven days (sent once per expiry date). Status: emitted. Ordering key: payload.keyId.
         */
        post: operations["deliverApiKeyExpiringEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "api_key.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An API key passed its expiresAt and was marked expired
         * @description An API key passed its expiresAt and was marked expired. Status: emitted. Ordering key: payload.keyId.
         */
        post: operations["deliverApiKeyExpiredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "api_key.deactivated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An API key was deactivated
         * @description An API key was deactivated. Status: emitted. Ordering key: payload.keyId.
         */
        post: operations["deliverApiKeyDeactivatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "api_key.spend_cap_reached": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A key's spending crossed 80% or 100% of its spendCapCredits
         * @description A key's spending crossed 80% or 100% of its spendCapCredits. Status: emitted. Ordering key: payload.keyId.
         */
        post: operations["deliverApiKeySpendCapReachedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "billing.credits_low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The account's credit balance fell below its lowCreditsThreshold
         * @description The account's credit balance fell below its lowCreditsThreshold. Status: emitted. No ordering key: an ordered subscription cannot name it.
         */
        post: operations["deliverBillingCreditsLowEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "billing.credits_exhausted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The account's credit balance reached zero
         * @description The account's credit balance reached zero. Status: emitted. No ordering key: an ordered subscription cannot name it.
         */
        post: operations["deliverBillingCreditsExhaustedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent by POST /v1/webhooks/{webhookId}/test to that subscription only; not subscribable
         * @description Sent by POST /v1/webhooks/{webhookId}/test to that subscription only; not subscribable. Status: emitted. No ordering key: an ordered subscription cannot name it.
         */
        post: operations["deliverWebhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Error: {
            error: {
                /** @enum {string} */
                type: "invalid_request_error" | "authentication_error" | "payment_required_error" | "permission_error" | "not_found_error" | "conflict_error" | "rate_limit_error" | "api_error";
                /** @description Stable, machine-readable; the codes each operation can answer are listed per status */
                code: string;
                /** @description For people; may change */
                message: string;
                /** @description The X-Request-Id of the request */
                requestId: string;
                /** @description validation_error: `fields` lists each field and its problem; insufficient_scope: `requiredScope` */
                details?: Record<string, never>;
            };
        };
        Account: {
            /** @description acct_… */
            id: string;
            name: string;
            /** @enum {string} */
            plan: "free" | "pro";
            creditsBalance: number;
            /** @enum {string} */
            agentKeyMinting: "admins" | "account_keys";
            lowCreditsThreshold: number;
            createdAt: components["schemas"]["Timestamp"];
        };
        AccountStats: {
            agents: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            contacts: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            inboxes: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            conversations: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            messages: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            runs: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            webhooks: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            apiKeys: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            domains: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            integrations: {
                total: number;
            } & {
                [key: string]: {
                    [key: string]: number;
                };
            };
            generatedAt: components["schemas"]["Timestamp"];
        };
        Activity: {
            /** @description act_… */
            id: string;
            agentId: string | null;
            kind: string;
            subject: {
                type: string;
                id: string;
            };
            summary: string;
            data: {
                [key: string]: unknown;
            };
            createdAt: components["schemas"]["Timestamp"];
        };
        Agent: {
            /** @description agt_… */
            id: string;
            /** @example Support */
            name: string;
            /** @enum {string} */
            status: "active" | "paused";
            config: {
                [key: string]: unknown;
            };
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /** @description Named rate limits shared by all of an agent's per-agent keys */
        AgentKeyRateLimits: {
            /** @description agt_… */
            agentId: string;
            rateLimits: components["schemas"]["RateLimit"][];
        };
        /** @description Key metadata: never the secret, never its hash */
        ApiKey: {
            /** @description key_… */
            id: string;
            name: string;
            /** @enum {string} */
            keyType: "account" | "agent";
            /** @enum {string} */
            keyPrefix: "ca_acct_" | "ca_agt_";
            agentId: string | null;
            scopes: string[];
            /** @enum {string} */
            status: "active" | "deactivated" | "expired";
            expiresAt: components["schemas"]["Timestamp"] | null;
            allowedIps: string[];
            spendCapCredits: number | null;
            /** @description Spent in the current period (ever, when the cap does not refill) */
            spentCredits: number;
            spendCapInterval: ("daily" | "monthly") | null;
            /** @description Monthly caps only */
            spendCapRefillDay: number | null;
            /** @description What the key may still spend in this period: spendCapCredits - spentCredits (null when uncapped) */
            remainingCredits: number | null;
            /** @description When the cap next refills (null when it does not refill) */
            nextRefillAt: components["schemas"]["Timestamp"] | null;
            /** @description The key's named rate limits, on every request it authenticates (its agent's apply as well) */
            rateLimits: components["schemas"]["RateLimit"][];
            /** @description Kept to the minute */
            lastUsedAt: components["schemas"]["Timestamp"] | null;
            lastUsedIp: string | null;
            createdAt: components["schemas"]["Timestamp"];
            /** @description Until when the secret before the last rotation still works */
            rotationGraceUntil: components["schemas"]["Timestamp"] | null;
        };
        /** @description The key's requests per hour by outcome: valid, or the refusal it met. Counts reach Postgres about a second after the requests. */
        ApiKeyUsage: {
            /** @description key_… */
            keyId: string;
            from: components["schemas"]["Timestamp"];
            to: components["schemas"]["Timestamp"];
            totals: {
                valid: number;
                rate_limited: number;
                spend_cap_exceeded: number;
                key_expired: number;
                key_deactivated: number;
                ip_not_allowed: number;
                insufficient_scope: number;
                agent_forbidden: number;
                admin_session_required: number;
            };
            /** @description Hours with requests, in order */
            hours: {
                hour: components["schemas"]["Timestamp"];
                outcomes: {
                    valid: number;
                    rate_limited: number;
                    spend_cap_exceeded: number;
                    key_expired: number;
                    key_deactivated: number;
                    ip_not_allowed: number;
                    insufficient_scope: number;
                    agent_forbidden: number;
                    admin_session_required: number;
                };
            }[];
        };
        ApiKeyWithSecret: {
            /** @description key_… */
            id: string;
            name: string;
            /** @enum {string} */
            keyType: "account" | "agent";
            /** @enum {string} */
            keyPrefix: "ca_acct_" | "ca_agt_";
            agentId: string | null;
            scopes: string[];
            /** @enum {string} */
            status: "active" | "deactivated" | "expired";
            expiresAt: components["schemas"]["Timestamp"] | null;
            allowedIps: string[];
            spendCapCredits: number | null;
            /** @description Spent in the current period (ever, when the cap does not refill) */
            spentCredits: number;
            spendCapInterval: ("daily" | "monthly") | null;
            /** @description Monthly caps only */
            spendCapRefillDay: number | null;
            /** @description What the key may still spend in this period: spendCapCredits - spentCredits (null when uncapped) */
            remainingCredits: number | null;
            /** @description When the cap next refills (null when it does not refill) */
            nextRefillAt: components["schemas"]["Timestamp"] | null;
            /** @description The key's named rate limits, on every request it authenticates (its agent's apply as well) */
            rateLimits: components["schemas"]["RateLimit"][];
            /** @description Kept to the minute */
            lastUsedAt: components["schemas"]["Timestamp"] | null;
            lastUsedIp: string | null;
            createdAt: components["schemas"]["Timestamp"];
            /** @description Until when the secret before the last rotation still works */
            rotationGraceUntil: components["schemas"]["Timestamp"] | null;
            /** @description The secret (ca_acct_… or ca_agt_…), shown this once (null in the replay of an answer to a repeated Idempotency-Key: a secret is never stored) */
            key: string | null;
        };
        AuditEntry: {
            /** @description log_… */
            id: string;
            action: string;
            actor: {
                /** @enum {string} */
                type: "user" | "key" | "oauth" | "system";
                id: string | null;
            };
            target: {
                type: string;
                id: string | null;
            } | null;
            ip: string | null;
            details: {
                [key: string]: unknown;
            };
            createdAt: components["schemas"]["Timestamp"];
        };
        Billing: {
            /** @enum {string} */
            plan: "free" | "pro";
            creditsBalance: number;
            usage: {
                periodStart: components["schemas"]["Timestamp"];
                creditsUsed: number;
                byReason: {
                    reason: string;
                    credits: number;
                    count: number;
                }[];
            };
        };
        Contact: {
            /** @description ct_… */
            id: string;
            agentId: string | null;
            name: string | null;
            email: string | null;
            phone: string | null;
            metadata: {
                [key: string]: unknown;
            };
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        Conversation: {
            /** @description conv_… */
            id: string;
            /** @description agt_… */
            agentId: string;
            /** @enum {string} */
            channel: "email" | "sms" | "chat";
            inboxId: string | null;
            contactId: string | null;
            subject: string | null;
            lastMessageAt: components["schemas"]["Timestamp"];
            createdAt: components["schemas"]["Timestamp"];
            /** @description The most recent messages, oldest first */
            recentMessages: components["schemas"]["Message"][];
        };
        Domain: {
            /** @description dom_… */
            id: string;
            name: string;
            /** @enum {string} */
            status: "pending" | "verified";
            dkimSelector: string;
            records: {
                /** @enum {string} */
                purpose: "spf" | "dkim" | "dmarc";
                /** @constant */
                type: "TXT";
                name: string;
                value: string;
                /** @enum {string} */
                status: "pending" | "verified" | "missing" | "mismatch";
                detail: string | null;
                /** @description What the last lookup found at that name */
                found: string[];
            }[];
            lastCheckedAt: components["schemas"]["Timestamp"] | null;
            verifiedAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /**
         * @description An event type a subscription may name (GET /v1/event-types)
         * @enum {string}
         */
        EventName: "message.received" | "message.sent" | "message.drafted" | "inbox.created" | "inbox.updated" | "inbox.deleted" | "contact.created" | "contact.updated" | "agent.updated" | "message.delivered" | "message.bounced" | "message.complained" | "message.rejected" | "escalation.triggered" | "webhook.disabled" | "webhook.delivery_exhausted" | "api_key.expiring" | "api_key.expired" | "api_key.deactivated" | "api_key.spend_cap_reached" | "billing.credits_low" | "billing.credits_exhausted";
        EventType: {
            name: string;
            /** @enum {string} */
            status: "emitted" | "planned";
            description: string;
            /** @description The path in the envelope of the value an ordered subscription (ordering "key") orders by, e.g. payload.conversationId; null: none, and an ordered subscription cannot name this type */
            orderingKey: string | null;
            /** @description JSON Schema of the event's payload, self-contained: what a subscription's filter is checked against */
            payloadSchema: {
                [key: string]: unknown;
            };
            /** @description JSON Schema of the whole delivery envelope of this event, payload included */
            schema: {
                [key: string]: unknown;
            };
        };
        FeedItem: {
            /** @description evt_… */
            id: string;
            event: string;
            inboxId: string | null;
            messageId: string | null;
            payload: {
                [key: string]: unknown;
            };
            createdAt: components["schemas"]["Timestamp"];
        };
        Inbox: {
            /** @description inb_… */
            id: string;
            /** @description agt_… */
            agentId: string;
            /** @enum {string} */
            channel: "email" | "sms";
            /** @example support@example.com */
            address: string;
            name: string | null;
            /** @enum {string} */
            status: "active" | "deleted";
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            deletedAt: components["schemas"]["Timestamp"] | null;
        };
        InboxWithIngestToken: {
            /** @description inb_… */
            id: string;
            /** @description agt_… */
            agentId: string;
            /** @enum {string} */
            channel: "email" | "sms";
            /** @example support@example.com */
            address: string;
            name: string | null;
            /** @enum {string} */
            status: "active" | "deleted";
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            deletedAt: components["schemas"]["Timestamp"] | null;
            /** @description Send as X-Inbound-Token to POST /v1/inbound/{inboxId}; shown once (null in the replay of an answer to a repeated Idempotency-Key: a secret is never stored) */
            ingestToken: string | null;
        };
        Integration: {
            /** @enum {string} */
            provider: "smtp" | "sms-http";
            /** @constant */
            connected: false;
        } | {
            /** @constant */
            provider: "smtp";
            /** @constant */
            connected: true;
            connectedAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            host: string;
            port: number;
            secure: boolean;
            username: string | null;
            from: string;
            hasPassword: boolean;
        } | {
            /** @constant */
            provider: "sms-http";
            /** @constant */
            connected: true;
            connectedAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description The URL with every query value replaced by "redacted", and its other credentials masked */
            url: string;
            from: string;
            headerNames: string[];
        };
        Message: {
            /** @description msg_… */
            id: string;
            /** @description agt_… */
            agentId: string;
            /** @description conv_… */
            conversationId: string;
            inboxId: string | null;
            contactId: string | null;
            runId: string | null;
            /** @enum {string} */
            direction: "inbound" | "outbound";
            /** @enum {string} */
            channel: "email" | "sms" | "chat";
            /** @enum {string} */
            status: "received" | "draft" | "queued" | "sent" | "failed";
            from: string | null;
            to: string | null;
            subject: string | null;
            /** @example Hi, my order has not arrived yet. Can you check? */
            text: string;
            error: string | null;
            sentAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        Notification: {
            /** @description ntf_… */
            id: string;
            kind: string;
            title: string;
            body: string;
            data: {
                [key: string]: unknown;
            };
            createdAt: components["schemas"]["Timestamp"];
        };
        OAuthGrant: {
            /** @description ogr_… */
            id: string;
            clientId: string;
            clientName: string | null;
            resource: string;
            agentId: string | null;
            scopes: string[];
            /** @description usr_… */
            grantedBy: string;
            createdAt: components["schemas"]["Timestamp"];
            expiresAt: components["schemas"]["Timestamp"];
            lastUsedAt: components["schemas"]["Timestamp"] | null;
        };
        PollCommit: {
            /** @description wh_… */
            webhookId: string;
            cursor: string;
        };
        PollCredential: {
            /** @description wh_… */
            webhookId: string;
            /** @description whpoll_…, shown this once; the one it replaces stops working at once */
            pollCredential: string;
        };
        PolledDelivery: {
            /**
             * Format: uuid
             * @description The envelope id: stable across re-reads and redeliveries
             */
            id: string;
            event: string;
            /** @description The headers a POST of this delivery would carry, X-Switchboard-Signature and webhook-signature included, signed at this poll */
            headers: {
                [key: string]: string;
            };
            /** @description The raw envelope JSON: verify the signatures over exactly this text */
            body: string;
        };
        PollPage: {
            /** @description In the order of the subscription’s log, after the cursor */
            data: components["schemas"]["PolledDelivery"][];
            /** @description More deliveries are ready now: poll again at once with nextCursor */
            hasMore: boolean;
            /** @description The position after this page; pass it as ?cursor= or commit it */
            nextCursor: string;
        };
        PortalLink: {
            /** @description plk_… */
            id: string;
            tenant: string;
            events: string[] | null;
            expiresAt: components["schemas"]["Timestamp"];
            revokedAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
        };
        PortalLinkWithToken: {
            /** @description plk_… */
            id: string;
            tenant: string;
            events: string[] | null;
            expiresAt: components["schemas"]["Timestamp"];
            revokedAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            /** @description ca_portal_…, shown this once (null in an idempotent replay) */
            token: string | null;
            /** @description The page to hand to the customer: /portal/<token>, shown this once */
            url: string | null;
        };
        PortalScope: {
            tenant: string;
            events: string[] | null;
            expiresAt: components["schemas"]["Timestamp"];
        };
        RateLimit: {
            name: string;
            limit: number;
            durationMs: number;
        };
        Redelivery: {
            /** Format: uuid */
            deliveryId: string;
            /** @constant */
            status: "pending";
        };
        Run: {
            /** @description run_… */
            id: string;
            /** @description agt_… */
            agentId: string;
            /** @description conv_… */
            conversationId: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            inputMessageId: string | null;
            replyMessageId: string | null;
            error: string | null;
            chargedCredits: number;
            startedAt: components["schemas"]["Timestamp"] | null;
            finishedAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
        };
        RunQueued: {
            run: {
                /** @description run_… */
                id: string;
                /** @description agt_… */
                agentId: string;
                /** @enum {string} */
                status: "queued" | "running" | "succeeded" | "failed";
                createdAt: components["schemas"]["Timestamp"];
            };
        };
        Session: {
            /** @description ca_sess_…, sent as Authorization: Bearer; shown once */
            token: string;
            expiresAt: components["schemas"]["Timestamp"];
        };
        TestDelivery: {
            /** Format: uuid */
            deliveryId: string;
            /** @description evt_… */
            eventId: string;
            /** @constant */
            event: "webhook.test";
            /** @constant */
            status: "pending";
        };
        TestEvent: {
            /** @description evt_… */
            eventId: string;
            event: string;
            /** @description One per subscription of the account that asks for the event */
            deliveryIds: string[];
        };
        /**
         * Format: date-time
         * @description ISO 8601 UTC with milliseconds
         */
        Timestamp: string;
        User: {
            /** @description usr_… */
            id: string;
            /** @description acct_… */
            accountId: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member";
            createdAt: components["schemas"]["Timestamp"];
        };
        Webhook: {
            /** @description wh_… */
            id: string;
            /**
             * @description http: POSTed to url; stream: sent down a `switchboard listen` connection while it is open; poll: taken by its consumer with GET /v1/webhooks/{webhookId}/poll (url is that path) and its poll credential; rabbitmq: published to `exchange` with `routingKey` on the amqp(s):// broker at url; nats: published to the JetStream `subject` on the nats:// or tls:// server at url; redis: appended with XADD (MAXLEN ~ `maxLength`) to the stream `streamKey` on the redis:// or rediss:// server at url (docs/webhooks.md#destination-kinds)
             * @enum {string}
             */
            kind: "http" | "stream" | "poll" | "rabbitmq" | "nats" | "redis";
            /** @description A broker URL is shown without its password (and without a token) */
            url: string;
            exchange: string | null;
            routingKey: string | null;
            subject: string | null;
            streamKey: string | null;
            maxLength: number | null;
            events: string[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Whether deliveries carry X-Switchboard-Signature-Legacy; the secret itself is never returned */
            hasLegacySecret: boolean;
            consecutiveFailures: number;
            rateLimitPerSecond: number | null;
            /** @description The label a portal link is scoped by (POST /v1/portal-links) */
            tenant: string | null;
            /**
             * @description key: the deliveries of one ordering key (each event type names its key, GET /v1/event-types `orderingKey`) are sent one at a time, in commit order; none (the default): in parallel
             * @enum {string}
             */
            ordering: "none" | "key";
            /**
             * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
             * @enum {string}
             */
            signatureScheme: "hmac-sha256" | "ed25519";
            /** @description ed25519: whpk_ + base64 of the 32-byte public key that verifies webhook-signature `v1a,` (public, shown on every read); null for hmac-sha256 */
            publicKey: string | null;
            /** @description The whpk_ of the key that still signs beside the current one until previousSecretExpiresAt (after a rotation or a change of scheme); null when that key is not ed25519 or its overlap is over */
            previousPublicKey: string | null;
            /** @description The filter on the payload; null: every event of the subscribed types (docs/webhook-filters.md) */
            filter: {
                [key: string]: unknown;
            } | null;
            disabledAt: components["schemas"]["Timestamp"] | null;
            disabledReason: string | null;
            previousSecretExpiresAt: components["schemas"]["Timestamp"] | null;
            /** @description An MCP Events webhook subscription (docs/mcp-events.md#webhook-mode); null for every other */
            mcp: {
                /** @description The id events/subscribe answered (X-MCP-Subscription-Id) */
                subscriptionId: string;
                /** @description Who subscribed: key:<API key id> or grant:<OAuth grant id> */
                principal: string;
                /** @description The arguments it was subscribed with */
                arguments: {
                    [key: string]: string;
                };
                /** @description The granted TTL (refreshBefore): no deliveries after it unless refreshed; null: no expiry */
                expiresAt: components["schemas"]["Timestamp"] | null;
            } | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        WebhookAttempt: {
            /** @description att_… */
            id: string;
            /** Format: uuid */
            deliveryId: string;
            /** @description wh_… */
            webhookId: string;
            event: string;
            attemptNumber: number;
            /** @enum {string} */
            status: "succeeded" | "failed";
            url: string;
            responseStatus: number | null;
            /** @description The first 4 KiB of the receiver's answer */
            responseBody: string | null;
            /** @description The headers sent, signatures included (HMACs, never the secret) */
            requestHeaders: {
                [key: string]: string;
            } | null;
            /** @description The receiver's headers: at most 50 and 4096 characters of names and values (the rest dropped, a "[truncated]" entry says so), set-cookie shown as "[redacted]"; null when no answer came, and for a stream destination */
            responseHeaders: {
                [key: string]: string;
            } | null;
            /** @description timeout, connection_refused, dns_failed, blocked_address, http_status, redirect, tls or invalid_url; for a broker destination also auth_failed, unroutable (no queue or stream took it), nack (the broker refused it) or connection_lost (the connection went before the broker confirmed: it may have taken it) */
            error: string | null;
            errorMessage: string | null;
            durationMs: number;
            createdAt: components["schemas"]["Timestamp"];
            nextAttemptAt: components["schemas"]["Timestamp"] | null;
        };
        WebhookChanged: {
            /** @description wh_… */
            id: string;
            /**
             * @description http: POSTed to url; stream: sent down a `switchboard listen` connection while it is open; poll: taken by its consumer with GET /v1/webhooks/{webhookId}/poll (url is that path) and its poll credential; rabbitmq: published to `exchange` with `routingKey` on the amqp(s):// broker at url; nats: published to the JetStream `subject` on the nats:// or tls:// server at url; redis: appended with XADD (MAXLEN ~ `maxLength`) to the stream `streamKey` on the redis:// or rediss:// server at url (docs/webhooks.md#destination-kinds)
             * @enum {string}
             */
            kind: "http" | "stream" | "poll" | "rabbitmq" | "nats" | "redis";
            /** @description A broker URL is shown without its password (and without a token) */
            url: string;
            exchange: string | null;
            routingKey: string | null;
            subject: string | null;
            streamKey: string | null;
            maxLength: number | null;
            events: string[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Whether deliveries carry X-Switchboard-Signature-Legacy; the secret itself is never returned */
            hasLegacySecret: boolean;
            consecutiveFailures: number;
            rateLimitPerSecond: number | null;
            /** @description The label a portal link is scoped by (POST /v1/portal-links) */
            tenant: string | null;
            /**
             * @description key: the deliveries of one ordering key (each event type names its key, GET /v1/event-types `orderingKey`) are sent one at a time, in commit order; none (the default): in parallel
             * @enum {string}
             */
            ordering: "none" | "key";
            /**
             * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
             * @enum {string}
             */
            signatureScheme: "hmac-sha256" | "ed25519";
            /** @description ed25519: whpk_ + base64 of the 32-byte public key that verifies webhook-signature `v1a,` (public, shown on every read); null for hmac-sha256 */
            publicKey: string | null;
            /** @description The whpk_ of the key that still signs beside the current one until previousSecretExpiresAt (after a rotation or a change of scheme); null when that key is not ed25519 or its overlap is over */
            previousPublicKey: string | null;
            /** @description The filter on the payload; null: every event of the subscribed types (docs/webhook-filters.md) */
            filter: {
                [key: string]: unknown;
            } | null;
            disabledAt: components["schemas"]["Timestamp"] | null;
            disabledReason: string | null;
            previousSecretExpiresAt: components["schemas"]["Timestamp"] | null;
            /** @description An MCP Events webhook subscription (docs/mcp-events.md#webhook-mode); null for every other */
            mcp: {
                /** @description The id events/subscribe answered (X-MCP-Subscription-Id) */
                subscriptionId: string;
                /** @description Who subscribed: key:<API key id> or grant:<OAuth grant id> */
                principal: string;
                /** @description The arguments it was subscribed with */
                arguments: {
                    [key: string]: string;
                };
                /** @description The granted TTL (refreshBefore): no deliveries after it unless refreshed; null: no expiry */
                expiresAt: components["schemas"]["Timestamp"] | null;
            } | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description The new whsec_ when this change made one (signatureScheme changed to hmac-sha256), shown this once; null otherwise */
            secret: string | null;
        };
        WebhookDelivery: {
            /**
             * Format: uuid
             * @description The envelope id, the same on every attempt
             */
            id: string;
            /** @description wh_… */
            webhookId: string;
            /** @description evt_… */
            eventId: string;
            event: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed" | "exhausted";
            attempts: number;
            /** @description When a pending delivery is tried next (after each failure, the next WEBHOOK_RETRY_DELAYS_MS delay ±10 %); null once final, and while an ordered delivery waits behind its key */
            nextAttemptAt: components["schemas"]["Timestamp"] | null;
            lastError: string | null;
            lastResponseStatus: number | null;
            completedAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        WebhookDeliveryWithEnvelope: {
            /**
             * Format: uuid
             * @description The envelope id, the same on every attempt
             */
            id: string;
            /** @description wh_… */
            webhookId: string;
            /** @description evt_… */
            eventId: string;
            event: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed" | "exhausted";
            attempts: number;
            /** @description When a pending delivery is tried next (after each failure, the next WEBHOOK_RETRY_DELAYS_MS delay ±10 %); null once final, and while an ordered delivery waits behind its key */
            nextAttemptAt: components["schemas"]["Timestamp"] | null;
            lastError: string | null;
            lastResponseStatus: number | null;
            completedAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            envelope: components["schemas"]["WebhookEnvelope"];
        };
        WebhookEnabled: {
            /** @description wh_… */
            id: string;
            /**
             * @description http: POSTed to url; stream: sent down a `switchboard listen` connection while it is open; poll: taken by its consumer with GET /v1/webhooks/{webhookId}/poll (url is that path) and its poll credential; rabbitmq: published to `exchange` with `routingKey` on the amqp(s):// broker at url; nats: published to the JetStream `subject` on the nats:// or tls:// server at url; redis: appended with XADD (MAXLEN ~ `maxLength`) to the stream `streamKey` on the redis:// or rediss:// server at url (docs/webhooks.md#destination-kinds)
             * @enum {string}
             */
            kind: "http" | "stream" | "poll" | "rabbitmq" | "nats" | "redis";
            /** @description A broker URL is shown without its password (and without a token) */
            url: string;
            exchange: string | null;
            routingKey: string | null;
            subject: string | null;
            streamKey: string | null;
            maxLength: number | null;
            events: string[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Whether deliveries carry X-Switchboard-Signature-Legacy; the secret itself is never returned */
            hasLegacySecret: boolean;
            consecutiveFailures: number;
            rateLimitPerSecond: number | null;
            /** @description The label a portal link is scoped by (POST /v1/portal-links) */
            tenant: string | null;
            /**
             * @description key: the deliveries of one ordering key (each event type names its key, GET /v1/event-types `orderingKey`) are sent one at a time, in commit order; none (the default): in parallel
             * @enum {string}
             */
            ordering: "none" | "key";
            /**
             * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
             * @enum {string}
             */
            signatureScheme: "hmac-sha256" | "ed25519";
            /** @description ed25519: whpk_ + base64 of the 32-byte public key that verifies webhook-signature `v1a,` (public, shown on every read); null for hmac-sha256 */
            publicKey: string | null;
            /** @description The whpk_ of the key that still signs beside the current one until previousSecretExpiresAt (after a rotation or a change of scheme); null when that key is not ed25519 or its overlap is over */
            previousPublicKey: string | null;
            /** @description The filter on the payload; null: every event of the subscribed types (docs/webhook-filters.md) */
            filter: {
                [key: string]: unknown;
            } | null;
            disabledAt: components["schemas"]["Timestamp"] | null;
            disabledReason: string | null;
            previousSecretExpiresAt: components["schemas"]["Timestamp"] | null;
            /** @description An MCP Events webhook subscription (docs/mcp-events.md#webhook-mode); null for every other */
            mcp: {
                /** @description The id events/subscribe answered (X-MCP-Subscription-Id) */
                subscriptionId: string;
                /** @description Who subscribed: key:<API key id> or grant:<OAuth grant id> */
                principal: string;
                /** @description The arguments it was subscribed with */
                arguments: {
                    [key: string]: string;
                };
                /** @description The granted TTL (refreshBefore): no deliveries after it unless refreshed; null: no expiry */
                expiresAt: components["schemas"]["Timestamp"] | null;
            } | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Failed deliveries re-queued because of recoverSince */
            recovered: number;
        };
        /** @description The request body of every attempt of this delivery, as sent: its JSON text is the exact body the signature covers */
        WebhookEnvelope: {
            /**
             * Format: uuid
             * @description The delivery id
             */
            id: string;
            event: string;
            /** @description The event's time */
            timestamp: components["schemas"]["Timestamp"];
            apiVersion: string;
            inboxId: string | null;
            messageId: string | null;
            payload: {
                [key: string]: unknown;
            };
        };
        /** @description Only events whose payload matches get a delivery (docs/webhook-filters.md). Keys are dotted payload paths or $and/$or (lists of filters) and $not (a filter); a path takes a value (equality) or an object of operators: $eq, $ne, $in, $nin, $exists, $gt, $gte, $lt, $lte, $startsWith. At most 4096 bytes, 50 paths and operators, 5 nested $and/$or/$not, 100 values in a list. */
        WebhookFilter: {
            [key: string]: unknown;
        };
        WebhookSecretRotated: {
            /** @description wh_… */
            id: string;
            /** @description whsec_ followed by the base64 of 32 random bytes, shown this once; null for an ed25519 subscription */
            secret: string | null;
            /**
             * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
             * @enum {string}
             */
            signatureScheme: "hmac-sha256" | "ed25519";
            /** @description ed25519: the new whpk_ public key; null for hmac-sha256 */
            publicKey: string | null;
            /** @description Deliveries are signed with both keys until then */
            previousSecretExpiresAt: components["schemas"]["Timestamp"];
        };
        WebhookStats: {
            /** @description wh_… */
            webhookId: string;
            /** @enum {string} */
            window: "1h" | "24h" | "7d";
            from: components["schemas"]["Timestamp"];
            to: components["schemas"]["Timestamp"];
            attempts: number;
            succeeded: number;
            failed: number;
            /** @description 0..1; null without attempts */
            successRate: number | null;
            durationMs: {
                p50: number | null;
                p95: number | null;
            };
            byError: {
                [key: string]: number;
            };
            byStatusClass: {
                [key: string]: number;
            };
            lastSuccessAt: components["schemas"]["Timestamp"] | null;
            lastFailureAt: components["schemas"]["Timestamp"] | null;
            /** @description The 5-minute buckets of the window that saw attempts, oldest first */
            buckets: {
                start: components["schemas"]["Timestamp"];
                attempts: number;
                succeeded: number;
            }[];
            consecutiveFailures: {
                attempts: number;
                deliveries: number;
                disableAfter: number;
            };
        };
        WebhookStreamOpened: {
            /** @description wh_… */
            webhookId: string;
            events: string[];
            /** @description whsec_…: the session secret; every delivery of this stream is signed with it (null for ed25519) */
            secret: string | null;
            /**
             * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
             * @enum {string}
             */
            signatureScheme: "hmac-sha256" | "ed25519";
            /** @description ed25519: the whpk_ public key that verifies every delivery of this stream; null for hmac-sha256 */
            publicKey: string | null;
        };
        WebhookStreamReportAccepted: {
            /** @constant */
            accepted: true;
        };
        WebhookWithSecret: {
            /** @description wh_… */
            id: string;
            /**
             * @description http: POSTed to url; stream: sent down a `switchboard listen` connection while it is open; poll: taken by its consumer with GET /v1/webhooks/{webhookId}/poll (url is that path) and its poll credential; rabbitmq: published to `exchange` with `routingKey` on the amqp(s):// broker at url; nats: published to the JetStream `subject` on the nats:// or tls:// server at url; redis: appended with XADD (MAXLEN ~ `maxLength`) to the stream `streamKey` on the redis:// or rediss:// server at url (docs/webhooks.md#destination-kinds)
             * @enum {string}
             */
            kind: "http" | "stream" | "poll" | "rabbitmq" | "nats" | "redis";
            /** @description A broker URL is shown without its password (and without a token) */
            url: string;
            exchange: string | null;
            routingKey: string | null;
            subject: string | null;
            streamKey: string | null;
            maxLength: number | null;
            events: string[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Whether deliveries carry X-Switchboard-Signature-Legacy; the secret itself is never returned */
            hasLegacySecret: boolean;
            consecutiveFailures: number;
            rateLimitPerSecond: number | null;
            /** @description The label a portal link is scoped by (POST /v1/portal-links) */
            tenant: string | null;
            /**
             * @description key: the deliveries of one ordering key (each event type names its key, GET /v1/event-types `orderingKey`) are sent one at a time, in commit order; none (the default): in parallel
             * @enum {string}
             */
            ordering: "none" | "key";
            /**
             * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
             * @enum {string}
             */
            signatureScheme: "hmac-sha256" | "ed25519";
            /** @description ed25519: whpk_ + base64 of the 32-byte public key that verifies webhook-signature `v1a,` (public, shown on every read); null for hmac-sha256 */
            publicKey: string | null;
            /** @description The whpk_ of the key that still signs beside the current one until previousSecretExpiresAt (after a rotation or a change of scheme); null when that key is not ed25519 or its overlap is over */
            previousPublicKey: string | null;
            /** @description The filter on the payload; null: every event of the subscribed types (docs/webhook-filters.md) */
            filter: {
                [key: string]: unknown;
            } | null;
            disabledAt: components["schemas"]["Timestamp"] | null;
            disabledReason: string | null;
            previousSecretExpiresAt: components["schemas"]["Timestamp"] | null;
            /** @description An MCP Events webhook subscription (docs/mcp-events.md#webhook-mode); null for every other */
            mcp: {
                /** @description The id events/subscribe answered (X-MCP-Subscription-Id) */
                subscriptionId: string;
                /** @description Who subscribed: key:<API key id> or grant:<OAuth grant id> */
                principal: string;
                /** @description The arguments it was subscribed with */
                arguments: {
                    [key: string]: string;
                };
                /** @description The granted TTL (refreshBefore): no deliveries after it unless refreshed; null: no expiry */
                expiresAt: components["schemas"]["Timestamp"] | null;
            } | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description whsec_…, shown this once (null for an ed25519 subscription, which has `publicKey` instead, and in the replay of an answer to a repeated Idempotency-Key: a secret is never stored) */
            secret: string | null;
            /** @description kind poll only: whpoll_…, the credential that polls this subscription and nothing else, shown this once (null in an Idempotency-Key replay) */
            pollCredential?: string | null;
        };
    };
    responses: {
        /** @description BadRequest; each operation lists the codes it can answer */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "invalid_json" | "invalid_scope" | "invalid_webhook_url" | "validation_error";
                    };
                };
            };
        };
        /** @description Conflict; each operation lists the codes it can answer */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "agent_paused" | "conflict" | "idempotency_key_in_use" | "inbox_deleted";
                    };
                };
            };
        };
        /** @description Forbidden; each operation lists the codes it can answer */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "admin_session_required" | "agent_forbidden" | "insufficient_scope" | "ip_not_allowed" | "origin_not_allowed" | "signup_disabled";
                    };
                };
            };
        };
        /** @description InternalError; each operation lists the codes it can answer */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
        };
        /** @description NotFound; each operation lists the codes it can answer */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
        };
        /** @description PayloadTooLarge; each operation lists the codes it can answer */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
        };
        /** @description PaymentRequired; each operation lists the codes it can answer */
        PaymentRequired: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "insufficient_credits" | "spend_cap_exceeded";
                    };
                };
            };
        };
        /** @description RateLimited; each operation lists the codes it can answer */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
        };
        /** @description Unauthorized; each operation lists the codes it can answer */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "invalid_credential" | "key_deactivated" | "key_expired" | "missing_credential" | "session_expired";
                    };
                };
            };
        };
        /** @description Unavailable; each operation lists the codes it can answer */
        Unavailable: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "unavailable";
                    };
                };
            };
        };
        /** @description UnprocessableContent; each operation lists the codes it can answer */
        UnprocessableContent: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
        };
        /** @description UnsupportedMediaType; each operation lists the codes it can answer */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
        };
    };
    parameters: {
        /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request id (a sane incoming X-Request-Id is echoed); also in every error body */
        XRequestId: string;
        /** @description Bearer error="invalid_token" (error="insufficient_scope" on scope 403s) */
        WWWAuthenticate: string;
        /** @description Seconds until the rate window resets */
        RetryAfter: number;
        /** @description Money-spending requests allowed per window for the plan (free 60, pro 600) */
        RateLimitLimit: number;
        /** @description Requests left in this window */
        RateLimitRemaining: number;
        /** @description Seconds until the window resets */
        RateLimitReset: number;
        /** @description `true` when the request used a rotated key's old secret */
        Deprecation: string;
        /** @description When that old secret stops working (HTTP date) */
        Sunset: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    checkLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    checkReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "unavailable" | "draining";
                        checks: {
                            /** @enum {string} */
                            postgres: "ok" | "down";
                            /** @enum {string} */
                            redis: "ok" | "down";
                        };
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description Success, or One of: `unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "unavailable" | "draining";
                        checks: {
                            /** @enum {string} */
                            postgres: "ok" | "down";
                            /** @enum {string} */
                            redis: "ok" | "down";
                        };
                    } | (components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "unavailable";
                        };
                    });
                };
            };
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "accountName": "Acme",
                 *       "email": "ada@example.com",
                 *       "password": "<PASSWORD>"
                 *     }
                 */
                "application/json": {
                    accountName: string;
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "account": {
                     *         "id": "acct_9Hq3VxM1eJd6Fu0Ro4Ga",
                     *         "name": "Acme",
                     *         "plan": "free",
                     *         "creditsBalance": 1000,
                     *         "agentKeyMinting": "admins",
                     *         "lowCreditsThreshold": 0,
                     *         "createdAt": "2026-11-01T09:30:00.000Z"
                     *       },
                     *       "user": {
                     *         "id": "usr_2Wn8RkT0aQpZs5Lc7Yb1",
                     *         "accountId": "acct_9Hq3VxM1eJd6Fu0Ro4Ga",
                     *         "email": "ada@example.com",
                     *         "role": "owner",
                     *         "createdAt": "2026-11-01T09:30:00.000Z"
                     *       },
                     *       "session": {
                     *         "token": "ca_sess_<SESSION_TOKEN>",
                     *         "expiresAt": "2026-11-01T21:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        account: components["schemas"]["Account"];
                        user: components["schemas"]["User"];
                        session: components["schemas"]["Session"];
                    };
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `signup_disabled` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    logIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "<PASSWORD>"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": {
                     *         "id": "usr_2Wn8RkT0aQpZs5Lc7Yb1",
                     *         "accountId": "acct_9Hq3VxM1eJd6Fu0Ro4Ga",
                     *         "email": "ada@example.com",
                     *         "role": "owner",
                     *         "createdAt": "2026-11-01T09:30:00.000Z"
                     *       },
                     *       "session": {
                     *         "token": "ca_sess_<SESSION_TOKEN>",
                     *         "expiresAt": "2026-11-01T21:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        user: components["schemas"]["User"];
                        session: components["schemas"]["Session"];
                    };
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    logOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `invalid_json`, `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `agent_forbidden`, `admin_session_required` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agentKeyMinting": "account_keys",
                 *       "lowCreditsThreshold": 100
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    agentKeyMinting?: "admins" | "account_keys";
                    lowCreditsThreshold?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listTeamMembers: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    addTeamMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "grace@example.com",
                 *       "password": "<PASSWORD>",
                 *       "role": "member"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                    /** @enum {string} */
                    role: "admin" | "member";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use`, `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditEntry"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listNotifications: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Notification"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listAgents: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Agent"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Support",
                 *       "config": {
                 *         "autoReply": "Thanks, we will get back to you."
                 *       }
                 *     }
                 */
                "application/json": {
                    name: string;
                    config?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "agt_5Vb0QmLr8TzXc1Nh2Kp4",
                     *       "name": "Support",
                     *       "status": "active",
                     *       "config": {
                     *         "autoReply": "Thanks, we will get back to you."
                     *       },
                     *       "createdAt": "2026-11-01T09:30:00.000Z",
                     *       "updatedAt": "2026-11-01T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "agt_5Vb0QmLr8TzXc1Nh2Kp4",
                     *       "name": "Support",
                     *       "status": "active",
                     *       "config": {
                     *         "autoReply": "Thanks, we will get back to you."
                     *       },
                     *       "createdAt": "2026-11-01T09:30:00.000Z",
                     *       "updatedAt": "2026-11-01T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "config": {
                 *         "autoReply": null,
                 *         "greeting": "Hello"
                 *       }
                 *     }
                 */
                "application/json": {
                    name?: string;
                    /** @enum {string} */
                    status?: "active" | "paused";
                    config?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listAgentContacts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Contact"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listAgentDrafts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listAgentConversations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Conversation"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listAgentActivity: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Activity"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAgentRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
                /** @description Run id */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    triggerAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "What is the status of order 1042?"
                 *     }
                 */
                "application/json": {
                    message: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunQueued"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `spend_cap_exceeded`, `insufficient_credits` */
            402: components["responses"]["PaymentRequired"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use`, `agent_paused` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listActivity: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Activity"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listContacts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Contact"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Grace",
                 *       "email": "grace@example.com",
                 *       "metadata": {
                 *         "plan": "pro"
                 *       }
                 *     }
                 */
                "application/json": {
                    name?: string;
                    /** Format: email */
                    email?: string;
                    phone?: string;
                    agentId?: string;
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use`, `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Contact id */
                contactId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updateContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Contact id */
                contactId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phone": "+14155550123",
                 *       "metadata": {
                 *         "plan": "enterprise"
                 *       }
                 *     }
                 */
                "application/json": {
                    name?: string | null;
                    email?: string | null;
                    phone?: string | null;
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listInboxes: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Inbox"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createInbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agentId": "agt_5Vb0QmLr8TzXc1Nh2Kp4",
                 *       "channel": "email",
                 *       "address": "support@mail.example.com",
                 *       "name": "Support"
                 *     }
                 */
                "application/json": {
                    agentId: string;
                    /** @enum {string} */
                    channel: "email" | "sms";
                    address: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxWithIngestToken"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use`, `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                inboxId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inbox"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    deleteInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                inboxId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updateInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                inboxId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Support (EU)"
                 *     }
                 */
                "application/json": {
                    name?: string | null;
                    address?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inbox"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict`, `inbox_deleted` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    receiveInboundMessage: {
        parameters: {
            query?: never;
            header: {
                /** @description The inbox's ingest token, shown once when the inbox was created */
                "X-Inbound-Token": string;
            };
            path: {
                /** @description Inbox id */
                inboxId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "from": "grace@example.com",
                 *       "subject": "Order 1042",
                 *       "text": "Where is my order?"
                 *     }
                 */
                "application/json": {
                    from: string;
                    subject?: string;
                    text: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `inbox_deleted` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                agentId?: string;
                conversationId?: string;
                inboxId?: string;
                status?: "received" | "draft" | "queued" | "sent" | "failed";
                direction?: "inbound" | "outbound";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createDraft: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "inboxId": "inb_8Kd2PzW5qLr0Tb3Xn7Vm",
                 *       "to": "grace@example.com",
                 *       "subject": "Your order",
                 *       "text": "It ships today."
                 *     }
                 */
                "application/json": {
                    inboxId: string;
                    to: string;
                    subject?: string;
                    text: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use`, `inbox_deleted` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    sendMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Message id */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `spend_cap_exceeded`, `insufficient_credits` */
            402: components["responses"]["PaymentRequired"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use`, `conflict`, `inbox_deleted` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listDrafts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listConversations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Conversation"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listIntegrations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Integration"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    connectIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integration provider id */
                provider: "smtp" | "sms-http";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "host": "smtp.example.com",
                 *       "port": 587,
                 *       "username": "mailer",
                 *       "password": "<PASSWORD>",
                 *       "from": "Acme <support@example.com>"
                 *     }
                 */
                "application/json": {
                    host: string;
                    port: number;
                    secure?: boolean;
                    username?: string;
                    password?: string;
                    from: string;
                } | {
                    url: string;
                    headers?: {
                        [key: string]: string;
                    };
                    from: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    disconnectIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integration provider id */
                provider: "smtp" | "sms-http";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listDomains: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Domain"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    addDomain: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "mail.example.com"
                 *     }
                 */
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use`, `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Domain id */
                domainId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    removeDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Domain id */
                domainId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    verifyDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Domain id */
                domainId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountStats"];
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listFeedEvents: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FeedItem"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EventType"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    sendAccountMcpMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "jsonrpc": "2.0",
                 *       "id": 1,
                 *       "method": "tools/list",
                 *       "params": {}
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    jsonrpc: "2.0";
                    method: string;
                    id?: string | number;
                    params?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A message the MCP transport refuses (JSON-RPC error), or One of: `validation_error`, `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    } | (components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation_error" | "invalid_json";
                        };
                    });
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `agent_forbidden`, `origin_not_allowed`, `insufficient_scope` */
            403: components["responses"]["Forbidden"];
            /** @description Stateless revision (2026-07-28): a method this server does not implement (JSON-RPC -32601) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    };
                };
            };
            /** @description The Accept header does not allow both application/json and text/event-stream (JSON-RPC error) */
            406: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description A request without Content-Type: application/json (JSON-RPC error), or One of: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    } | (components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "unsupported_media_type";
                        };
                    });
                };
            };
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    sendAgentMcpMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "jsonrpc": "2.0",
                 *       "id": 1,
                 *       "method": "tools/list",
                 *       "params": {}
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    jsonrpc: "2.0";
                    method: string;
                    id?: string | number;
                    params?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A message the MCP transport refuses (JSON-RPC error), or One of: `validation_error`, `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    } | (components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation_error" | "invalid_json";
                        };
                    });
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `agent_forbidden`, `origin_not_allowed`, `insufficient_scope` */
            403: components["responses"]["Forbidden"];
            /** @description Stateless revision (2026-07-28): a method this server does not implement (JSON-RPC -32601), or One of: `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    } | (components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "not_found";
                        };
                    });
                };
            };
            /** @description The Accept header does not allow both application/json and text/event-stream (JSON-RPC error) */
            406: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description A request without Content-Type: application/json (JSON-RPC error), or One of: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        error: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                        id?: string | number | null;
                    } | (components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "unsupported_media_type";
                        };
                    });
                };
            };
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        issuer: string;
                        authorization_endpoint: string;
                        token_endpoint: string;
                        registration_endpoint?: string;
                        jwks_uri?: string;
                        scopes_supported?: string[];
                        code_challenge_methods_supported?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenIdConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        issuer: string;
                        authorization_endpoint: string;
                        token_endpoint: string;
                        registration_endpoint?: string;
                        jwks_uri?: string;
                        scopes_supported?: string[];
                        code_challenge_methods_supported?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAccountMcpResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        resource: string;
                        authorization_servers: string[];
                        scopes_supported: string[];
                        bearer_methods_supported: "header"[];
                        resource_name: string;
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAgentMcpResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        resource: string;
                        authorization_servers: string[];
                        scopes_supported: string[];
                        bearer_methods_supported: "header"[];
                        resource_name: string;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getMcpResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        resource: string;
                        authorization_servers: string[];
                        scopes_supported: string[];
                        bearer_methods_supported: "header"[];
                        resource_name: string;
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listOAuthGrants: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["OAuthGrant"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    revokeOAuthGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description OAuth grant id */
                grantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createAccountKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "CI",
                 *       "scopes": [
                 *         "read:agents"
                 *       ]
                 *     }
                 */
                "application/json": {
                    name: string;
                    scopes?: string[];
                    expiresAt?: string | null;
                    allowedIps?: string[];
                    spendCapCredits?: number | null;
                    /** @description How often the spend cap refills (UTC); null: it never does, spentCredits counts for ever */
                    spendCapInterval?: ("daily" | "monthly") | null;
                    /** @description The day of the month a monthly cap refills (default 1; 29..31 mean the last day of shorter months) */
                    spendCapRefillDay?: number;
                    /** @description Named rate limits: each allows `limit` requests per fixed window of `durationMs` */
                    rateLimits?: {
                        name: string;
                        limit: number;
                        durationMs: number;
                    }[];
                    /** @constant */
                    keyType?: "account";
                    agentId?: null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_3Rt9UaPq0LmXw2Bv6Nc1",
                     *       "name": "CI",
                     *       "keyType": "account",
                     *       "keyPrefix": "ca_acct_",
                     *       "agentId": null,
                     *       "scopes": [
                     *         "read:agents"
                     *       ],
                     *       "status": "active",
                     *       "expiresAt": null,
                     *       "allowedIps": [],
                     *       "spendCapCredits": null,
                     *       "spentCredits": 0,
                     *       "spendCapInterval": null,
                     *       "spendCapRefillDay": null,
                     *       "remainingCredits": null,
                     *       "nextRefillAt": null,
                     *       "rateLimits": [],
                     *       "lastUsedAt": null,
                     *       "lastUsedIp": null,
                     *       "createdAt": "2026-11-01T09:30:00.000Z",
                     *       "rotationGraceUntil": null,
                     *       "key": "<API_KEY>"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json`, `invalid_scope` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "CI (deploys)",
                 *       "allowedIps": [
                 *         "203.0.113.0/24"
                 *       ],
                 *       "spendCapCredits": 500
                 *     }
                 */
                "application/json": {
                    name?: string;
                    expiresAt?: string | null;
                    allowedIps?: string[];
                    spendCapCredits?: number | null;
                    /** @description How often the spend cap refills (UTC); null: it never does, spentCredits counts for ever */
                    spendCapInterval?: ("daily" | "monthly") | null;
                    /** @description The day of the month a monthly cap refills (default 1; 29..31 mean the last day of shorter months) */
                    spendCapRefillDay?: number;
                    /** @description Named rate limits: each allows `limit` requests per fixed window of `durationMs` */
                    rateLimits?: {
                        name: string;
                        limit: number;
                        durationMs: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    deactivateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createAgentKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Support bot",
                 *       "scopes": [
                 *         "agent:config:read",
                 *         "agent:trigger"
                 *       ]
                 *     }
                 */
                "application/json": {
                    name: string;
                    scopes?: string[];
                    expiresAt?: string | null;
                    allowedIps?: string[];
                    spendCapCredits?: number | null;
                    /** @description How often the spend cap refills (UTC); null: it never does, spentCredits counts for ever */
                    spendCapInterval?: ("daily" | "monthly") | null;
                    /** @description The day of the month a monthly cap refills (default 1; 29..31 mean the last day of shorter months) */
                    spendCapRefillDay?: number;
                    /** @description Named rate limits: each allows `limit` requests per fixed window of `durationMs` */
                    rateLimits?: {
                        name: string;
                        limit: number;
                        durationMs: number;
                    }[];
                    /** @constant */
                    keyType?: "agent";
                    agentId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json`, `invalid_scope` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAgentKeyRateLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentKeyRateLimits"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updateAgentKeyRateLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rateLimits": [
                 *         {
                 *           "name": "burst",
                 *           "limit": 20,
                 *           "durationMs": 1000
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description Named rate limits: each allows `limit` requests per fixed window of `durationMs` */
                    rateLimits: {
                        name: string;
                        limit: number;
                        durationMs: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentKeyRateLimits"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getApiKeyUsage: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
            };
            header?: never;
            path: {
                /** @description API key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyUsage"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getAgentKeyUsage: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
            };
            header?: never;
            path: {
                /** @description Agent id */
                agentId: string;
                /** @description API key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyUsage"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getBilling: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Billing"];
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    addCredits: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 500
                 *     }
                 */
                "application/json": {
                    amount: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Billing"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `admin_session_required`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    connectWebhookStream: {
        parameters: {
            query?: {
                events?: string;
                signatureScheme?: "hmac-sha256" | "ed25519";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookStreamOpened"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    sendWebhookStreamReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.9b2f4c1e-7d3a-4e5b-8c6d-1a2b3c4d5e6f",
                 *       "deliveryId": "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
                 *       "status": 204,
                 *       "durationMs": 12
                 *     }
                 */
                "application/json": {
                    token: string;
                    /** Format: uuid */
                    deliveryId: string;
                    status: number | null;
                    durationMs: number;
                    /** @default null */
                    error?: ("timeout" | "connection_refused" | "dns_failed" | "tls") | null;
                    /** @default null */
                    message?: string | null;
                    /** @default null */
                    body?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookStreamReportAccepted"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    sendTestEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "contact.created",
                 *       "payload": {
                 *         "id": "con_…"
                 *       }
                 *     }
                 */
                "application/json": {
                    event: components["schemas"]["EventName"];
                    payload: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestEvent"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/hooks/switchboard",
                 *       "events": [
                 *         "message.received"
                 *       ],
                 *       "description": "orders",
                 *       "filter": {
                 *         "channel": {
                 *           "$in": [
                 *             "sms",
                 *             "email"
                 *           ]
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * @description http (the default): POSTed to url; poll: taken by its consumer with GET /v1/webhooks/{webhookId}/poll (url is that path) and its poll credential; rabbitmq: published to `exchange` with `routingKey` on the amqp(s):// broker at url; nats: published to the JetStream `subject` on the nats:// or tls:// server at url; redis: appended with XADD (MAXLEN ~ `maxLength`) to the stream `streamKey` on the redis:// or rediss:// server at url
                     * @enum {string}
                     */
                    kind?: "http" | "poll" | "rabbitmq" | "nats" | "redis";
                    /** @description Required for every kind but poll, which has none */
                    url?: string;
                    /** @description rabbitmq: the exchange to publish to; "" is the default exchange */
                    exchange?: string;
                    /** @description rabbitmq: the routing key; `{event}` is replaced by the event name (e.g. `switchboard.{event}`) */
                    routingKey?: string;
                    /** @description nats: the JetStream subject; `{event}` is replaced by the event name (e.g. `switchboard.{event}`) */
                    subject?: string;
                    /** @description redis: the stream key; `{event}` is replaced by the event name (e.g. `switchboard:{event}`) */
                    streamKey?: string;
                    /** @description redis: the stream is trimmed to about this many entries (XADD MAXLEN ~), 1 to 10000000 */
                    maxLength?: number;
                    events: components["schemas"]["EventName"][];
                    description?: string;
                    legacySecret?: string;
                    rateLimitPerSecond?: number | null;
                    tenant?: string;
                    /**
                     * @description key: the deliveries of one ordering key (each event type names its key, GET /v1/event-types `orderingKey`) are sent one at a time, in commit order; none (the default): in parallel
                     * @enum {string}
                     */
                    ordering?: "none" | "key";
                    /**
                     * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
                     * @enum {string}
                     */
                    signatureScheme?: "hmac-sha256" | "ed25519";
                    filter?: components["schemas"]["WebhookFilter"];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wh_4Fp7XcN2bQz9Lm1Tr8Ys",
                     *       "kind": "http",
                     *       "url": "https://example.com/hooks/switchboard",
                     *       "exchange": null,
                     *       "routingKey": null,
                     *       "subject": null,
                     *       "streamKey": null,
                     *       "maxLength": null,
                     *       "events": [
                     *         "message.received"
                     *       ],
                     *       "description": "orders",
                     *       "status": "active",
                     *       "hasLegacySecret": false,
                     *       "consecutiveFailures": 0,
                     *       "rateLimitPerSecond": null,
                     *       "tenant": null,
                     *       "ordering": "none",
                     *       "signatureScheme": "hmac-sha256",
                     *       "publicKey": null,
                     *       "previousPublicKey": null,
                     *       "filter": null,
                     *       "disabledAt": null,
                     *       "disabledReason": null,
                     *       "previousSecretExpiresAt": null,
                     *       "mcp": null,
                     *       "createdAt": "2026-11-01T09:30:00.000Z",
                     *       "updatedAt": "2026-11-01T09:30:00.000Z",
                     *       "secret": "<SIGNING_SECRET>"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json`, `invalid_webhook_url` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "events": [
                 *         "message.received",
                 *         "message.sent"
                 *       ],
                 *       "rateLimitPerSecond": 20,
                 *       "ordering": "key"
                 *     }
                 */
                "application/json": {
                    url?: string;
                    /** @description rabbitmq: the exchange to publish to; "" is the default exchange */
                    exchange?: string;
                    /** @description rabbitmq: the routing key; `{event}` is replaced by the event name (e.g. `switchboard.{event}`) */
                    routingKey?: string;
                    /** @description nats: the JetStream subject; `{event}` is replaced by the event name (e.g. `switchboard.{event}`) */
                    subject?: string;
                    /** @description redis: the stream key; `{event}` is replaced by the event name (e.g. `switchboard:{event}`) */
                    streamKey?: string;
                    /** @description redis: the stream is trimmed to about this many entries (XADD MAXLEN ~), 1 to 10000000 */
                    maxLength?: number;
                    events?: components["schemas"]["EventName"][];
                    description?: string | null;
                    legacySecret?: string | null;
                    rateLimitPerSecond?: number | null;
                    tenant?: string | null;
                    /**
                     * @description key: the deliveries of one ordering key (each event type names its key, GET /v1/event-types `orderingKey`) are sent one at a time, in commit order; none (the default): in parallel
                     * @enum {string}
                     */
                    ordering?: "none" | "key";
                    /**
                     * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
                     * @enum {string}
                     */
                    signatureScheme?: "hmac-sha256" | "ed25519";
                    filter?: components["schemas"]["WebhookFilter"] | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookChanged"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json`, `invalid_webhook_url` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "signatureScheme": "ed25519"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The subscription's own scheme (a check: another one is refused; PATCH changes the scheme)
                     * @enum {string}
                     */
                    signatureScheme?: "hmac-sha256" | "ed25519";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretRotated"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    enableWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "recoverSince": "2026-11-01T08:00:00.000Z"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description RFC 3339, e.g. 2026-12-01T00:00:00Z
                     */
                    recoverSince?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEnabled"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    disableWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookAttempts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                deliveryId?: string;
            };
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookAttempt"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhookStats: {
        parameters: {
            query?: {
                window?: "1h" | "24h" | "7d";
            };
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookStats"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                status?: "pending" | "succeeded" | "failed" | "exhausted";
                event?: string;
            };
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
                /** @description Delivery id */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryWithEnvelope"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Webhook id */
                webhookId: string;
                /** @description Delivery id */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redelivery"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use`, `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    sendWebhookTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestDelivery"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `idempotency_key_in_use`, `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    pollWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PollPage"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    commitWebhookPoll: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cursor": "eyJ3Ijoid2hfNEZwN1hjTjJiUXo5TG0xVHI4WXMiLCJwIjo0Mn0"
                 *     }
                 */
                "application/json": {
                    cursor: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PollCommit"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    rotateWebhookPollCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PollCredential"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    revokeWebhookPollCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listPortalLinks: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PortalLink"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createPortalLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tenant": "customer-42",
                 *       "events": [
                 *         "message.received"
                 *       ],
                 *       "expiresInSeconds": 86400
                 *     }
                 */
                "application/json": {
                    tenant: string;
                    /** @description The event types the portal may subscribe to; omitted: any */
                    events?: components["schemas"]["EventName"][];
                    /** @default 86400 */
                    expiresInSeconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalLinkWithToken"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `idempotency_key_in_use` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `idempotency_key_reused` */
            422: components["responses"]["UnprocessableContent"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    revokePortalLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Portal link id */
                linkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalLink"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential`, `key_expired`, `key_deactivated`, `session_expired` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `ip_not_allowed`, `insufficient_scope`, `agent_forbidden` */
            403: components["responses"]["Forbidden"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `rate_limited` */
            429: components["responses"]["RateLimited"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listPortalWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    createPortalWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://customer.example/hooks",
                 *       "events": [
                 *         "message.received"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description Required for every kind but poll, which has none */
                    url: string;
                    events: components["schemas"]["EventName"][];
                    description?: string;
                    /**
                     * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
                     * @enum {string}
                     */
                    signatureScheme?: "hmac-sha256" | "ed25519";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json`, `invalid_webhook_url` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getPortalScope: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalScope"];
                };
            };
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getPortalWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    updatePortalWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://customer.example/hooks/v2"
                 *     }
                 */
                "application/json": {
                    url?: string;
                    events?: components["schemas"]["EventName"][];
                    description?: string | null;
                    /**
                     * @description hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign
                     * @enum {string}
                     */
                    signatureScheme?: "hmac-sha256" | "ed25519";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookChanged"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json`, `invalid_webhook_url` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    rotatePortalWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "signatureScheme": "ed25519"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The subscription's own scheme (a check: another one is refused; PATCH changes the scheme)
                     * @enum {string}
                     */
                    signatureScheme?: "hmac-sha256" | "ed25519";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretRotated"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listPortalWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                status?: "pending" | "succeeded" | "failed" | "exhausted";
                event?: string;
            };
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getPortalWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
                /** @description Delivery id */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryWithEnvelope"];
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    listPortalWebhookAttempts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                deliveryId?: string;
            };
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookAttempt"][];
                        hasMore: boolean;
                        /** @description Pass as ?cursor= to get the next page; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description One of: `validation_error` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    redeliverPortalWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhookId: string;
                /** @description Delivery id */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redelivery"];
                };
            };
            /** @description One of: `validation_error`, `invalid_json` */
            400: components["responses"]["BadRequest"];
            /** @description One of: `missing_credential`, `invalid_credential` */
            401: components["responses"]["Unauthorized"];
            /** @description One of: `not_found` */
            404: components["responses"]["NotFound"];
            /** @description One of: `conflict` */
            409: components["responses"]["Conflict"];
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `unsupported_media_type` */
            415: components["responses"]["UnsupportedMediaType"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description One of: `payload_too_large` */
            413: components["responses"]["PayloadTooLarge"];
            /** @description One of: `internal_error` */
            500: components["responses"]["InternalError"];
            /** @description One of: `unavailable` */
            503: components["responses"]["Unavailable"];
        };
    };
    deliverMessageReceivedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "message.received";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Message"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverMessageSentEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "message.sent";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Message"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverMessageDraftedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "message.drafted";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Message"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverInboxCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "inbox.created";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Inbox"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverInboxUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "inbox.updated";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Inbox"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverInboxDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "inbox.deleted";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Inbox"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverContactCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "contact.created";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Contact"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverContactUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "contact.updated";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Contact"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverAgentUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "agent.updated";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Agent"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverMessageDeliveredEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "message.delivered";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Message"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverMessageBouncedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "message.bounced";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Message"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverMessageComplainedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "message.complained";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Message"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverMessageRejectedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "message.rejected";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: components["schemas"]["Message"];
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverEscalationTriggeredEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "escalation.triggered";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    /** @description Planned: not produced yet, and its payload is not fixed */
                    payload: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverWebhookDisabledEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "webhook.disabled";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example wh_2kR8vN5qT1xM7cL4pB9d */
                        webhookId: string;
                        /** @example https://example.com/hooks */
                        url: string;
                        /** @example 20 consecutive deliveries failed every retry. */
                        reason: string;
                        /** @example 20 */
                        consecutiveFailures: number;
                        disabledAt: components["schemas"]["Timestamp"];
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverWebhookDeliveryExhaustedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "webhook.delivery_exhausted";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example wh_2kR8vN5qT1xM7cL4pB9d */
                        webhookId: string;
                        /** @example https://example.com/hooks */
                        url: string;
                        /**
                         * @description The envelope id of the delivery that failed
                         * @example 019ad6b6-3b3e-7c4f-9d7e-3a1f0c2b5e8d
                         */
                        deliveryId: string;
                        /** @example evt_7mQ2xL9pT4vB1nR8cK5d */
                        eventId: string;
                        /** @example contact.created */
                        event: string;
                        /** @example 8 */
                        attempts: number;
                        lastError: string | null;
                        lastResponseStatus: number | null;
                        /**
                         * @description The subscription's count of consecutive exhausted deliveries, after this one
                         * @example 3
                         */
                        consecutiveFailures: number;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverApiKeyExpiringEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "api_key.expiring";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example key_4fT9pQ2mX7rL1sV8bN3c */
                        keyId: string;
                        /** @example billing integration */
                        name: string;
                        /** @enum {string} */
                        keyType: "account" | "agent";
                        /** @example ca_acct_ */
                        keyPrefix: string;
                        agentId: string | null;
                        expiresAt: components["schemas"]["Timestamp"];
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverApiKeyExpiredEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "api_key.expired";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example key_4fT9pQ2mX7rL1sV8bN3c */
                        keyId: string;
                        /** @example billing integration */
                        name: string;
                        /** @enum {string} */
                        keyType: "account" | "agent";
                        /** @example ca_acct_ */
                        keyPrefix: string;
                        agentId: string | null;
                        expiresAt: components["schemas"]["Timestamp"] | null;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverApiKeyDeactivatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "api_key.deactivated";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example key_4fT9pQ2mX7rL1sV8bN3c */
                        keyId: string;
                        /** @example billing integration */
                        name: string;
                        /** @enum {string} */
                        keyType: "account" | "agent";
                        /** @example ca_acct_ */
                        keyPrefix: string;
                        agentId: string | null;
                        expiresAt: components["schemas"]["Timestamp"] | null;
                        /** @enum {string} */
                        previousStatus: "active" | "expired";
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverApiKeySpendCapReachedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "api_key.spend_cap_reached";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example key_4fT9pQ2mX7rL1sV8bN3c */
                        keyId: string;
                        /** @example billing integration */
                        name: string;
                        /** @enum {string} */
                        keyType: "account" | "agent";
                        /** @example ca_acct_ */
                        keyPrefix: string;
                        agentId: string | null;
                        expiresAt: components["schemas"]["Timestamp"] | null;
                        percent: 80 | 100;
                        /** @example 1000 */
                        spendCapCredits: number;
                        /** @example 800 */
                        spentCredits: number;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverBillingCreditsLowEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "billing.credits_low";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example 42 */
                        creditsBalance: number;
                        /** @example 100 */
                        lowCreditsThreshold: number;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverBillingCreditsExhaustedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "billing.credits_exhausted";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @example 0 */
                        creditsBalance: number;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverWebhookTestEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event name (the envelope `event`). */
                "X-Switchboard-Event": string;
                /** @description The delivery id (the envelope `id`), the same on every retry. */
                "X-Switchboard-Delivery": string;
                /** @description `t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`. */
                "X-Switchboard-Signature"?: string;
                /** @description Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body). */
                "X-Switchboard-Signature-Legacy"?: string;
                /** @description Standard Webhooks: the delivery id. */
                "webhook-id": string;
                /** @description Standard Webhooks: the send time in Unix seconds. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme. */
                "webhook-signature": string;
                /** @description Always `Switchboard-Webhooks/1`. */
                "User-Agent": "Switchboard-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry; receivers dedupe on it
                     */
                    id: string;
                    /** @constant */
                    event: "webhook.test";
                    /** @description When the event happened */
                    timestamp: components["schemas"]["Timestamp"];
                    /** @constant */
                    apiVersion: "2026-11-01";
                    inboxId: string | null;
                    messageId: string | null;
                    payload: {
                        /** @description wh_… */
                        webhookId: string;
                        message: string;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
