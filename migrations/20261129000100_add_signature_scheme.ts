import type { Knex } from 'knex';

// Standard Webhooks asymmetric signatures (docs/adr/0084-ed25519-signatures.md): a subscription signs with
// 'hmac-sha256' (a whsec_ secret, every existing row) or 'ed25519' (a whsk_ key pair whose secret half is sealed in
// secret_sealed like any secret). The public halves are not secret and are read by every GET of the subscription,
// so they are kept in the clear: public_key for the current key, previous_public_key for the one that keeps
// signing until previous_secret_expires_at after a rotation or a change of scheme. No row is rewritten (the default
// is a constant, the new columns nullable); the two CHECKs are validated by one scan of webhooks, the table of
// subscriptions (not of deliveries), under its ACCESS EXCLUSIVE lock.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks
    ADD COLUMN signature_scheme text NOT NULL DEFAULT 'hmac-sha256'
      CONSTRAINT webhooks_signature_scheme CHECK (signature_scheme IN ('hmac-sha256', 'ed25519')),
    ADD COLUMN public_key text,
    ADD COLUMN previous_public_key text,
    ADD CONSTRAINT webhooks_public_key_of_scheme CHECK ((signature_scheme = 'ed25519') = (public_key IS NOT NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_public_key_of_scheme,
    DROP COLUMN previous_public_key, DROP COLUMN public_key, DROP COLUMN signature_scheme`);
}
