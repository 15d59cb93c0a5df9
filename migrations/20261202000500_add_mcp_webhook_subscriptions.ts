import type { Knex } from 'knex';

// MCP Events webhook mode (docs/mcp-events.md#webhook-mode, docs/adr/0092-mcp-events-webhooks.md): a subscription
// made with `events/subscribe` on an MCP endpoint is a webhooks row of kind http, so the delivery engine sends it
// (retries, attempts, auto-disable). What marks it as the protocol's:
//
// - mcp_subscription_id: the sketch's derived id (sub_…), deterministic over (principal, url, name, arguments);
//   one live row per id. It is the X-MCP-Subscription-Id header and chooses the EventOccurrence body.
// - mcp_principal: who subscribed, `key:<api key id>` or `grant:<OAuth grant id>`; its deliveries stop (with a
//   terminated body) once sb_mcp_principal_live says that credential no longer works.
// - mcp_arguments: the subscription's arguments as given (the filter column holds what they select).
// - expires_at: the granted TTL (refreshBefore); null: no expiry. Past it the fan-out gives the row no delivery.

const PRINCIPAL_LIVE = `
CREATE FUNCTION sb_mcp_principal_live(account text, principal text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
  SELECT CASE split_part(principal, ':', 1)
    WHEN 'key' THEN EXISTS (SELECT 1 FROM api_keys k
                             WHERE k.account_id = account AND k.id = split_part(principal, ':', 2)
                               AND k.status = 'active' AND (k.expires_at IS NULL OR k.expires_at > now()))
    WHEN 'grant' THEN EXISTS (SELECT 1 FROM oauth_grants g
                               WHERE g.account_id = account AND g.id = split_part(principal, ':', 2)
                                 AND g.expires_at > now())
    ELSE false END
$fn$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(PRINCIPAL_LIVE);
  await knex.raw(`ALTER TABLE webhooks
    ADD COLUMN mcp_subscription_id text,
    ADD COLUMN mcp_principal text,
    ADD COLUMN mcp_arguments jsonb,
    ADD COLUMN expires_at timestamptz,
    ADD CONSTRAINT webhooks_mcp_complete CHECK ((mcp_subscription_id IS NULL) = (mcp_principal IS NULL))`);
  await knex.raw(`CREATE UNIQUE INDEX webhooks_mcp_subscription ON webhooks (mcp_subscription_id)
    WHERE mcp_subscription_id IS NOT NULL AND deleted_at IS NULL`);
  // The per-principal limit counts its live subscriptions; verification looks for one of its rows to a URL.
  await knex.raw(`CREATE INDEX webhooks_mcp_principal ON webhooks (mcp_principal, url)
    WHERE mcp_principal IS NOT NULL AND deleted_at IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM webhooks WHERE mcp_subscription_id IS NOT NULL`);
  await knex.raw(`DROP INDEX webhooks_mcp_principal`);
  await knex.raw(`DROP INDEX webhooks_mcp_subscription`);
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_mcp_complete, DROP COLUMN expires_at,
    DROP COLUMN mcp_arguments, DROP COLUMN mcp_principal, DROP COLUMN mcp_subscription_id`);
  await knex.raw(`DROP FUNCTION sb_mcp_principal_live(text, text)`);
}
