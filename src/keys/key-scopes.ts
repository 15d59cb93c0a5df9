import { AppError } from '../platform/errors.js';
import {
  ACCOUNT_SCOPES,
  ACCOUNT_WILDCARDS,
  AGENT_SCOPES,
  DEFAULT_ACCOUNT_SCOPES,
  DEFAULT_AGENT_SCOPES,
  NEVER_GRANTABLE,
} from '../auth/scopes.js';

const grantable: Record<'account' | 'agent', ReadonlySet<string>> = {
  account: new Set<string>([...ACCOUNT_SCOPES, ...ACCOUNT_WILDCARDS]),
  agent: new Set<string>(AGENT_SCOPES),
};

function rejection(keyType: 'account' | 'agent', scope: string): string | null {
  if ((NEVER_GRANTABLE as readonly string[]).includes(scope)) return 'never grantable to any key';
  if (grantable[keyType].has(scope)) return null;
  const other = keyType === 'account' ? 'agent' : 'account';
  if (grantable[other].has(scope))
    return `an ${other}-key scope; ${keyType} keys draw from the ${keyType} namespace only`;
  return 'unknown scope';
}

/** The scopes a new key gets: the defaults when omitted, else the given ones (deduplicated) if all are allowed. */
export function resolveScopes(keyType: 'account' | 'agent', requested: string[] | undefined): string[] {
  if (requested === undefined) return keyType === 'account' ? [...DEFAULT_ACCOUNT_SCOPES] : [...DEFAULT_AGENT_SCOPES];
  const invalid = requested.flatMap((scope) => {
    const reason = rejection(keyType, scope);
    return reason ? [{ scope, reason }] : [];
  });
  if (invalid.length) {
    throw new AppError(
      'invalid_scope',
      `Scope not allowed on a ${keyType} key: ${invalid.map((i) => `${i.scope} (${i.reason})`).join(', ')}`,
      { scopes: invalid },
    );
  }
  return [...new Set(requested)];
}
