import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { text } from '../platform/input.js';
import { idString, outText, timestamp } from '../platform/output.js';

export type RecordPurpose = 'spf' | 'dkim' | 'dmarc';
export type RecordStatus = 'pending' | 'verified' | 'missing' | 'mismatch';
export const RECORD_PURPOSES: RecordPurpose[] = ['spf', 'dkim', 'dmarc'];

export interface RecordCheck {
  status: Exclude<RecordStatus, 'pending'>;
  detail: string | null;
  /** What the lookup found at that name (public DNS data), to help fix a mismatch. */
  found: string[];
}

export interface DomainRow {
  id: string;
  account_id: string;
  name: string;
  status: 'pending' | 'verified';
  dkim_selector: string;
  dkim_public_key: string;
  dkim_private_key_sealed: string;
  checks: Partial<Record<RecordPurpose, RecordCheck>>;
  last_checked_at: Date | null;
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A bare domain name: lowercased, trailing dot dropped, IDNs in their ASCII (punycode) form. */
export const domainName = text()
  .trim()
  .max(253)
  .transform((v) => v.toLowerCase().replace(/\.$/, ''))
  .superRefine((v, ctx) => {
    if (/[/:@\s]/.test(v)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a bare domain name like mail.example.com, without scheme, port or path',
      });
      return;
    }
    const ascii = domainToASCII(v);
    const labels = ascii.split('.');
    if (!ascii || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a domain name made of labels of letters, digits and hyphens, like mail.example.com',
      });
    } else if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1]!)) {
      ctx.addIssue({ code: 'custom', message: 'must end in a real top-level domain (an IP address is not a domain)' });
    }
  })
  .transform((v) => domainToASCII(v));

export const domainInput = z.strictObject({ name: domainName });

export interface DnsRecord {
  purpose: RecordPurpose;
  type: 'TXT';
  name: string;
  value: string;
}

/** The three records the customer publishes, derived from the stored row and the platform's SPF host. */
export function expectedRecords(
  row: Pick<DomainRow, 'name' | 'dkim_selector' | 'dkim_public_key'>,
  spfInclude: string,
): DnsRecord[] {
  return [
    { purpose: 'spf', type: 'TXT', name: row.name, value: `v=spf1 include:${spfInclude} ~all` },
    {
      purpose: 'dkim',
      type: 'TXT',
      name: `${row.dkim_selector}._domainkey.${row.name}`,
      value: `v=DKIM1; k=rsa; p=${row.dkim_public_key}`,
    },
    // p=none: start by monitoring; the customer tightens the policy once mail flows.
    { purpose: 'dmarc', type: 'TXT', name: `_dmarc.${row.name}`, value: 'v=DMARC1; p=none;' },
  ];
}

export function toDomainResponse(row: DomainRow, spfInclude: string) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    dkimSelector: row.dkim_selector,
    records: expectedRecords(row, spfInclude).map((r) => {
      const check = row.checks[r.purpose];
      return {
        ...r,
        status: (check?.status ?? 'pending') as RecordStatus,
        detail: check?.detail ?? null,
        found: check?.found ?? [],
      };
    }),
    lastCheckedAt: iso(row.last_checked_at),
    verifiedAt: iso(row.verified_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export const domainResponse = z
  .object({
    id: idString('dom'),
    name: outText(),
    status: z.enum(['pending', 'verified']),
    dkimSelector: outText(),
    records: z.array(
      z.object({
        purpose: z.enum(['spf', 'dkim', 'dmarc']),
        type: z.literal('TXT'),
        name: outText(),
        value: outText(),
        status: z.enum(['pending', 'verified', 'missing', 'mismatch']),
        detail: outText().nullable(),
        found: z.array(outText()).describe('What the last lookup found at that name'),
      }),
    ),
    lastCheckedAt: timestamp().nullable(),
    verifiedAt: timestamp().nullable(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  })
  .meta({ id: 'Domain' });
