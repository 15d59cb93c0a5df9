import type { Conn } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { IntegrationRow, Provider } from './integrations.schema.js';

export async function listIntegrationRows(conn: Conn, accountId: string): Promise<IntegrationRow[]> {
  return conn<IntegrationRow>('integrations').where({ account_id: accountId }).orderBy('provider');
}

export async function findIntegration(
  conn: Conn,
  accountId: string,
  provider: Provider,
): Promise<IntegrationRow | undefined> {
  return conn<IntegrationRow>('integrations').where({ account_id: accountId, provider }).first();
}

/** One row per (account, provider): connecting again replaces settings and secrets. `inserted` tells which. */
export async function upsertIntegration(
  conn: Conn,
  accountId: string,
  provider: Provider,
  values: { settings: Record<string, unknown>; secretsSealed: string },
): Promise<{ row: IntegrationRow; inserted: boolean }> {
  const result = await conn.raw<{ rows: Array<IntegrationRow & { inserted: boolean }> }>(
    `INSERT INTO integrations (id, account_id, provider, settings, secrets_sealed)
     VALUES (?, ?, ?, ?::jsonb, ?)
     ON CONFLICT (account_id, provider) DO UPDATE
       SET settings = EXCLUDED.settings, secrets_sealed = EXCLUDED.secrets_sealed, connected_at = now(), updated_at = now()
     RETURNING *, (xmax = 0) AS inserted`,
    [newId('int'), accountId, provider, JSON.stringify(values.settings), values.secretsSealed],
  );
  const { inserted, ...row } = result.rows[0]!;
  return { row, inserted };
}

export async function deleteIntegration(conn: Conn, accountId: string, provider: Provider): Promise<boolean> {
  const count = await conn('integrations').where({ account_id: accountId, provider }).delete();
  return count > 0;
}
