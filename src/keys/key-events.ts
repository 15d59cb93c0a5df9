import { iso } from '../platform/clock.js';
import type { KeyRow } from './keys.repository.js';

/** What an api_key.* event says about its key: identity and public metadata, never the secret or its hash. */
export const keyEventRef = (
  k: Pick<KeyRow, 'id' | 'name' | 'key_type' | 'key_prefix' | 'agent_id' | 'expires_at'>,
) => ({
  keyId: k.id,
  name: k.name,
  keyType: k.key_type,
  keyPrefix: k.key_prefix,
  agentId: k.agent_id,
  expiresAt: iso(k.expires_at),
});
