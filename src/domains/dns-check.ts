import { Resolver } from 'node:dns/promises';
import type { Config } from '../platform/config.js';
import type { DnsRecord, RecordCheck, RecordPurpose } from './domains.schema.js';

// Real TXT lookups for domain verification. Servers come from config (a test's own), else the system's.

type Lookup = { ok: true; values: string[] } | { ok: false; absent: boolean; code: string };

export function createDnsResolver(config: Config): Resolver {
  const resolver = new Resolver({ timeout: config.dns.timeoutMs, tries: config.dns.tries });
  if (config.dns.servers) resolver.setServers(config.dns.servers);
  return resolver;
}

async function lookupTxt(resolver: Resolver, name: string): Promise<Lookup> {
  try {
    // A TXT record arrives as chunks of at most 255 bytes; the record's value is their concatenation.
    return { ok: true, values: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'EUNKNOWN';
    return { ok: false, absent: code === 'ENOTFOUND' || code === 'ENODATA', code };
  }
}

const startsWithTag = (value: string, tag: string) => value.trim().toLowerCase().startsWith(tag.toLowerCase());

/** Tags of a DKIM/DMARC style record: "v=DKIM1; k=rsa; p=..." → {v, k, p}. */
function parseTags(value: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).replace(/\s+/g, '');
  }
  return tags;
}

function judge(purpose: RecordPurpose, expected: DnsRecord, found: string[], spfInclude: string): RecordCheck {
  const shown = found.slice(0, 5).map((v) => (v.length > 600 ? `${v.slice(0, 600)}…` : v));
  const result = (status: RecordCheck['status'], detail: string | null): RecordCheck => ({
    status,
    detail,
    found: shown,
  });
  if (purpose === 'spf') {
    const spf = found.filter((v) => /^v=spf1(\s|$)/i.test(v.trim()));
    if (spf.length === 0) return result('missing', `No SPF record (v=spf1 …) at ${expected.name}`);
    if (spf.length > 1) return result('mismatch', 'More than one SPF record; merge them into one (RFC 7208)');
    const includes = spf[0]!
      .toLowerCase()
      .split(/\s+/)
      .some((m) => m.replace(/^[+]/, '') === `include:${spfInclude}`);
    return includes
      ? result('verified', null)
      : result('mismatch', `The SPF record does not contain include:${spfInclude}`);
  }
  if (purpose === 'dkim') {
    const dkim = found.filter((v) => startsWithTag(v, 'v=DKIM1') || /(^|;)\s*p=/.test(v));
    if (dkim.length === 0) return result(found.length ? 'mismatch' : 'missing', `No DKIM record at ${expected.name}`);
    const want = parseTags(expected.value).p;
    return dkim.some((v) => parseTags(v).p === want)
      ? result('verified', null)
      : result('mismatch', 'The DKIM record holds a different public key (p=); publish the value shown');
  }
  const dmarc = found.filter((v) => /^v=DMARC1\s*(;|$)/i.test(v.trim()));
  if (dmarc.length === 0)
    return result(found.length ? 'mismatch' : 'missing', `No DMARC record (v=DMARC1; …) at ${expected.name}`);
  if (dmarc.length > 1) return result('mismatch', 'More than one DMARC record; receivers ignore them all');
  // Any policy the customer chose is fine; only its presence is required for sending.
  return result('verified', null);
}

/** Looks up the three records and judges each one: verified, missing or mismatch. */
export async function checkDomainRecords(
  config: Config,
  records: DnsRecord[],
): Promise<Record<RecordPurpose, RecordCheck>> {
  const resolver = createDnsResolver(config);
  const outcomes = await Promise.all(
    records.map(async (r): Promise<[RecordPurpose, RecordCheck]> => {
      const lookup = await lookupTxt(resolver, r.name);
      if (!lookup.ok) {
        const detail = lookup.absent
          ? `No TXT record at ${r.name}`
          : `DNS lookup of ${r.name} failed (${lookup.code}); try again later`;
        return [r.purpose, { status: 'missing', detail, found: [] }];
      }
      return [r.purpose, judge(r.purpose, r, lookup.values, config.domains.spfInclude)];
    }),
  );
  return Object.fromEntries(outcomes) as Record<RecordPurpose, RecordCheck>;
}
