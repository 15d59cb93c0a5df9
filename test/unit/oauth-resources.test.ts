import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { mayGrant, parseResource, resourceOfPath } from '../../src/oauth/resources.js';
import { looksLikeAccessToken } from '../../src/oauth/oauth-token-resolve.js';
import { cspSourceOf, escapeHtml } from '../../src/http/oauth/pages.js';

const base = 'https://api.example.com';

describe('OAuth resources', () => {
  it('are exactly our two MCP endpoint URLs under PUBLIC_URL', () => {
    expect(parseResource(base, `${base}/v1/mcp`)).toEqual({ kind: 'account', url: `${base}/v1/mcp` });
    expect(parseResource(base, `${base}/v1/agents/agt_abc123/mcp`)).toEqual({
      kind: 'agent',
      url: `${base}/v1/agents/agt_abc123/mcp`,
      agentId: 'agt_abc123',
    });
    for (const other of [
      `${base}/v1/agents`,
      `${base}/v1/mcp/`,
      `${base}/v1/agents/x/mcp`,
      'https://evil.example/v1/mcp',
      `${base}.evil.example/v1/mcp`,
      `${base}/v1/agents/agt_a/mcp?x=1`,
    ]) {
      expect(parseResource(base, other)).toBeNull();
    }
    expect(resourceOfPath(base, '/v1/agents/agt_a/chat')).toBeNull();
  });

  it('may be granted by owners and admins; agent scopes by members when the policy is account_keys', () => {
    for (const policy of ['admins', 'account_keys'] as const) {
      for (const kind of ['agent', 'account'] as const) {
        expect(mayGrant('owner', { kind }, policy)).toBe(true);
        expect(mayGrant('admin', { kind }, policy)).toBe(true);
      }
      expect(mayGrant('member', { kind: 'account' }, policy)).toBe(false);
    }
    expect(mayGrant('member', { kind: 'agent' }, 'account_keys')).toBe(true);
    expect(mayGrant('member', { kind: 'agent' }, 'admins')).toBe(false);
  });

  it('recognises an access token by its shape only, never a key or session token', () => {
    expect(looksLikeAccessToken('a'.repeat(43))).toBe(true);
    expect(looksLikeAccessToken('a'.repeat(42))).toBe(false);
    expect(looksLikeAccessToken(`ca_sess_${'a'.repeat(40)}`)).toBe(false);
  });
});

describe('PUBLIC_URL and the OAuth pages', () => {
  it('takes an origin only', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/', APP_SECRET: 'x'.repeat(32) }).oauth.publicUrl).toBe(
      'https://api.example.com',
    );
    expect(() => loadConfig({ PUBLIC_URL: 'https://api.example.com/v1', APP_SECRET: 'x'.repeat(32) })).toThrow(
      /PUBLIC_URL/,
    );
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x', APP_SECRET: 'x'.repeat(32) })).toThrow(/PUBLIC_URL/);
  });

  it('escapes outside text and derives form targets from redirect URIs', () => {
    expect(escapeHtml(`<script>"x"&'y'</script>`)).not.toMatch(/[<>"']/);
    expect(cspSourceOf('https://claude.ai/api/mcp/auth_callback')).toBe('https://claude.ai');
    expect(cspSourceOf('cursor://anysphere.cursor-mcp/oauth/callback')).toBe('cursor:');
    expect(cspSourceOf('javascript alert')).toBeNull();
  });
});
