import { recordAudit } from '../audit/audit.repository.js';
import type { Caller } from '../auth/principal.js';
import type { Deps } from '../app/deps.js';
import { AppError, fieldError, notFound } from '../platform/errors.js';
import { checkTargetUrl } from '../platform/http-client.js';
import { parseInput } from '../platform/validation.js';
import {
  deleteIntegration,
  findIntegration,
  listIntegrationRows,
  upsertIntegration,
} from './integrations.repository.js';
import {
  isProvider,
  PROVIDERS,
  smsHttpInput,
  smtpInput,
  splitSecrets,
  toIntegrationResponse,
  type Provider,
  type SmsHttpConfig,
  type SmsHttpInput,
  type SmtpConfig,
  type SmtpInput,
} from './integrations.schema.js';
import { transaction } from '../platform/transaction.js';

/** An unknown provider in the path is a resource that does not exist. */
export function parseProvider(raw: string): Provider {
  if (!isProvider(raw)) throw notFound(`Integration provider "${raw.slice(0, 40)}"`);
  return raw;
}

/** Every provider, connected or not, so a client sees what it could connect. */
export async function listIntegrations(deps: Deps, accountId: string) {
  const rows = await listIntegrationRows(deps.db, accountId);
  return PROVIDERS.map((p) =>
    toIntegrationResponse(
      p,
      rows.find((r) => r.provider === p),
    ),
  );
}

export async function connectIntegration(deps: Deps, caller: Caller, provider: Provider, body: unknown) {
  const { principal, ip } = caller;
  const input = provider === 'smtp' ? parseInput(smtpInput(), body) : parseInput(smsHttpInput(), body);
  await checkProviderTarget(deps, provider, input);
  const { settings, secrets } = splitSecrets(provider, input);
  const secretsSealed = deps.sealers.integration.seal(JSON.stringify(secrets));
  return transaction(deps.db, async (trx) => {
    const { row, inserted } = await upsertIntegration(trx, principal.accountId, provider, { settings, secretsSealed });
    await recordAudit(trx, principal, {
      action: 'integration.connected',
      targetType: 'integration',
      targetId: provider,
      ip,
      details: { provider, replaced: !inserted },
    });
    return { integration: toIntegrationResponse(provider, row), created: inserted };
  });
}

/**
 * The workers will connect wherever an integration points, so it gets the webhooks' SSRF rule: https and a
 * public address (names are resolved and every answer judged), unless WEBHOOK_ALLOW_PRIVATE_TARGETS is on.
 */
async function checkProviderTarget(deps: Deps, provider: Provider, input: SmtpInput | SmsHttpInput): Promise<void> {
  const field = provider === 'smtp' ? 'host' : 'url';
  const target = provider === 'smtp' ? smtpTargetUrl(input as SmtpInput) : (input as SmsHttpInput).url;
  try {
    await checkTargetUrl(deps.config, target);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'invalid_webhook_url') throw err;
    const message = err.message.replace(/^The url /, '').replace(/\.$/, '');
    throw fieldError(field, message);
  }
}

// SMTP is not HTTP, but the question (may we dial this host?) is the same; an https URL carries the host.
const smtpTargetUrl = (v: SmtpInput) => `https://${v.host.includes(':') ? `[${v.host}]` : v.host}:${v.port}/`;

export async function disconnectIntegration(deps: Deps, caller: Caller, provider: Provider): Promise<void> {
  const { principal, ip } = caller;
  await transaction(deps.db, async (trx) => {
    if (!(await deleteIntegration(trx, principal.accountId, provider))) throw notFound('Integration');
    await recordAudit(trx, principal, {
      action: 'integration.disconnected',
      targetType: 'integration',
      targetId: provider,
      ip,
      details: { provider },
    });
  });
}

/**
 * The decrypted configuration of an account's connected integration, for the senders (message-send worker).
 * null when the account has not connected that provider. Never put its result in logs, job data or responses.
 */
export async function getIntegrationConfig(deps: Deps, accountId: string, provider: 'smtp'): Promise<SmtpConfig | null>;
export async function getIntegrationConfig(
  deps: Deps,
  accountId: string,
  provider: 'sms-http',
): Promise<SmsHttpConfig | null>;
export async function getIntegrationConfig(
  deps: Deps,
  accountId: string,
  provider: 'smtp' | 'sms-http',
): Promise<Record<string, unknown> | null>;
export async function getIntegrationConfig(
  deps: Deps,
  accountId: string,
  provider: Provider,
): Promise<Record<string, unknown> | null> {
  const row = await findIntegration(deps.db, accountId, provider);
  if (!row) return null;
  const secrets = JSON.parse(deps.sealers.integration.open(row.secrets_sealed)) as Record<string, unknown>;
  if (provider === 'smtp') {
    const s = row.settings;
    const config: SmtpConfig = {
      host: String(s.host),
      port: Number(s.port),
      secure: Boolean(s.secure),
      username: (s.username as string | null) ?? null,
      password: (secrets.password as string | null) ?? null,
      from: String(s.from),
    };
    return config;
  }
  const config: SmsHttpConfig = {
    url: String(secrets.url),
    headers: (secrets.headers as Record<string, string>) ?? {},
    from: String(row.settings.from),
  };
  return config;
}
