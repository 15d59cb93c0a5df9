import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { jsonObject, text } from '../platform/input.js';
import { idString, jsonRecord, outText, timestamp } from '../platform/output.js';

export const emailAddress = text().trim().toLowerCase().email().max(254);
/** E.164: a plus, then up to 15 digits. */
export const phoneNumber = text()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +14155550123');

// Metadata keys are short labels; the values are free-form JSON within the size bound.
const metadata = jsonObject(16 * 1024).pipe(z.record(text().max(100), z.unknown()));

export const contactInput = z
  .object({
    name: text().trim().min(1).max(200).optional(),
    email: emailAddress.optional(),
    phone: phoneNumber.optional(),
    agentId: text().min(1).max(100).optional(),
    metadata: metadata.optional(),
  })
  .strict()
  .refine((c) => c.email !== undefined || c.phone !== undefined, {
    message: 'a contact needs an email or a phone',
    path: ['email'],
  });

/** null clears a field; at least one field. */
export const contactPatch = z
  .object({
    name: text().trim().min(1).max(200).nullable().optional(),
    email: emailAddress.nullable().optional(),
    phone: phoneNumber.nullable().optional(),
    metadata: metadata.optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'send at least one of name, email, phone, metadata');

export type ContactInput = z.infer<typeof contactInput>;
export type ContactPatch = z.infer<typeof contactPatch>;

export interface ContactRow {
  id: string;
  account_id: string;
  agent_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const toContactResponse = (c: ContactRow) => ({
  id: c.id,
  agentId: c.agent_id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  metadata: c.metadata,
  createdAt: iso(c.created_at),
  updatedAt: iso(c.updated_at),
});

export const contactResponse = z
  .object({
    id: idString('ct'),
    agentId: idString('agt').nullable(),
    name: outText()
      .meta({ examples: ['Ada Lovelace'] })
      .nullable(),
    email: outText()
      .meta({ format: 'email', examples: ['ada@example.com'] })
      .nullable(),
    phone: outText()
      .meta({ description: 'E.164', examples: ['+14155550123'] })
      .nullable(),
    metadata: jsonRecord(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  })
  .meta({ id: 'Contact' });
