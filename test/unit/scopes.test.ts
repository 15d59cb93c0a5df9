import { describe, expect, it } from 'vitest';
import { ACCOUNT_SCOPES, AGENT_SCOPES, scopeSatisfies, type Scope } from '../../src/auth/scopes.js';

const ALL: Scope[] = [...ACCOUNT_SCOPES, ...AGENT_SCOPES];

// What each grant should satisfy, written out independently of the implementation.
const expected: Record<string, (required: Scope) => boolean> = {
  '*': () => true,
  'read:*': (r) => /^read:[a-z_]+$/.test(r),
  '*:agents': (r) => /^[a-z]+:agents$/.test(r),
};

describe('scopeSatisfies, every scope of both tables', () => {
  const rows = ALL.flatMap((granted) => ALL.map((required) => [granted, required, granted === required] as const));
  it.each(rows)('granted %s, required %s → %s (literal only)', (granted, required, result) => {
    expect(scopeSatisfies([granted], required)).toBe(result);
  });

  const wildcardRows = Object.entries(expected).flatMap(([granted, rule]) =>
    ALL.map((required) => [granted, required, rule(required)] as const),
  );
  it.each(wildcardRows)('wildcard %s, required %s → %s', (granted, required, result) => {
    expect(scopeSatisfies([granted], required)).toBe(result);
  });
});

describe('scopeSatisfies, wildcard edges', () => {
  it('read:* does not satisfy integrations:read or messages:send', () => {
    expect(scopeSatisfies(['read:*'], 'integrations:read')).toBe(false);
    expect(scopeSatisfies(['read:*'], 'messages:send')).toBe(false);
    expect(scopeSatisfies(['read:*'], 'write:agents')).toBe(false);
  });

  it('*:agents satisfies trigger:agents, read:agents and write:agents only', () => {
    expect(scopeSatisfies(['*:agents'], 'trigger:agents')).toBe(true);
    expect(scopeSatisfies(['*:agents'], 'read:agents')).toBe(true);
    expect(scopeSatisfies(['*:agents'], 'write:agents')).toBe(true);
    expect(scopeSatisfies(['*:agents'], 'read:contacts')).toBe(false);
  });

  it('no wildcard crosses into the agent namespace, and agent scopes never satisfy account scopes', () => {
    for (const s of AGENT_SCOPES) {
      expect(scopeSatisfies(['read:*', '*:agents'], s)).toBe(false);
    }
    expect(scopeSatisfies([...AGENT_SCOPES], 'read:agents')).toBe(false);
    expect(scopeSatisfies([...AGENT_SCOPES], 'trigger:agents')).toBe(false);
    expect(scopeSatisfies(['agent:config:read'], 'read:agents')).toBe(false);
  });

  it('made-up wildcard forms grant nothing', () => {
    for (const bogus of [
      '*:*',
      'read:**',
      'agent:*',
      'agent:config:*',
      '*:read',
      'write:*',
      'READ:*',
      ' read:*',
      'read:agents ',
    ]) {
      for (const s of ALL) expect(scopeSatisfies([bogus], s)).toBe(false);
    }
  });

  it("the legacy '*' satisfies everything in both namespaces", () => {
    for (const s of ALL) expect(scopeSatisfies(['*'], s)).toBe(true);
  });

  it('an empty grant satisfies nothing; any one matching grant among many suffices', () => {
    for (const s of ALL) expect(scopeSatisfies([], s)).toBe(false);
    expect(scopeSatisfies(['read:contacts', 'messages:send'], 'messages:send')).toBe(true);
  });
});
