import { recordAudit } from '../audit/audit.repository.js';
import type { Caller } from '../auth/principal.js';
import type { Deps } from '../app/deps.js';
import { AppError, notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { isUniqueViolation } from '../platform/pg-errors.js';
import { parseInput } from '../platform/validation.js';
import { generateDkimKeyPair } from './dkim.js';
import { checkDomainRecords } from './dns-check.js';
import {
  deleteDomain,
  findDomain,
  findDomainByName,
  insertDomain,
  listDomains,
  recordDomainChecks,
} from './domains.repository.js';
import { domainInput, expectedRecords, RECORD_PURPOSES, toDomainResponse } from './domains.schema.js';
import { transaction } from '../platform/transaction.js';

const respond = (deps: Deps) => (row: Parameters<typeof toDomainResponse>[0]) =>
  toDomainResponse(row, deps.config.domains.spfInclude);

export async function listDomainsFor(deps: Deps, accountId: string, page: PageQuery) {
  return mapPage(await listDomains(deps.db, accountId, page), respond(deps));
}

export async function getDomain(deps: Deps, accountId: string, domainId: string) {
  const row = await findDomain(deps.db, accountId, domainId);
  if (!row) throw notFound('Domain');
  return respond(deps)(row);
}

/** Adds a sending domain with a fresh DKIM key; answers the records to publish. The private key never leaves. */
export async function addDomain(deps: Deps, caller: Caller, body: unknown) {
  const { principal, ip } = caller;
  const { name } = parseInput(domainInput, body);
  const key = await generateDkimKeyPair();
  try {
    const row = await transaction(deps.db, async (trx) => {
      const inserted = await insertDomain(trx, principal.accountId, {
        id: newId('dom'),
        name,
        dkim_selector: key.selector,
        dkim_public_key: key.publicKey,
        dkim_private_key_sealed: deps.sealers.dkim.seal(key.privateKeyPem),
      });
      await recordAudit(trx, principal, {
        action: 'domain.created',
        targetType: 'domain',
        targetId: inserted.id,
        ip,
        details: { name },
      });
      return inserted;
    });
    return respond(deps)(row);
  } catch (err) {
    if (isUniqueViolation(err, 'domains_account_name_unique'))
      throw new AppError('conflict', `The domain ${name} is already added to this account`);
    throw err;
  }
}

export async function removeDomain(deps: Deps, caller: Caller, domainId: string): Promise<void> {
  const { principal, ip } = caller;
  await transaction(deps.db, async (trx) => {
    const row = await findDomain(trx, principal.accountId, domainId);
    if (!row || !(await deleteDomain(trx, principal.accountId, domainId))) throw notFound('Domain');
    await recordAudit(trx, principal, {
      action: 'domain.deleted',
      targetType: 'domain',
      targetId: domainId,
      ip,
      details: { name: row.name },
    });
  });
}

/** Looks the records up in DNS now and stores the outcome; the domain is verified when all three are. */
export async function verifyDomain(deps: Deps, caller: Caller, domainId: string) {
  const { principal, ip } = caller;
  const row = await findDomain(deps.db, principal.accountId, domainId);
  if (!row) throw notFound('Domain');
  // DNS first, outside any transaction: lookups can take seconds.
  const checks = await checkDomainRecords(deps.config, expectedRecords(row, deps.config.domains.spfInclude));
  const status = RECORD_PURPOSES.every((p) => checks[p].status === 'verified') ? 'verified' : 'pending';
  const updated = await transaction(deps.db, async (trx) => {
    const next = await recordDomainChecks(trx, principal.accountId, domainId, checks, status);
    if (!next) throw notFound('Domain');
    if (next.status !== row.status) {
      await recordAudit(trx, principal, {
        action: status === 'verified' ? 'domain.verified' : 'domain.unverified',
        targetType: 'domain',
        targetId: domainId,
        ip,
        details: { name: row.name, records: Object.fromEntries(RECORD_PURPOSES.map((p) => [p, checks[p].status])) },
      });
    }
    return next;
  });
  return respond(deps)(updated);
}

/**
 * DKIM signing material for mail from a verified domain of the account (nodemailer's `dkim` option), or null.
 * For the senders only; never put the result in logs, job data or responses.
 */
export async function getDkimSigningKey(deps: Deps, accountId: string, domain: string) {
  const row = await findDomainByName(deps.db, accountId, domain.toLowerCase());
  if (!row || row.status !== 'verified') return null;
  return {
    domainName: row.name,
    keySelector: row.dkim_selector,
    privateKey: deps.sealers.dkim.open(row.dkim_private_key_sealed),
  };
}
