import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';

// The settings of the MCP endpoints and of sign-in (docs/configuration.md).

const base = { APP_SECRET: 'x'.repeat(40) };
const dataDir = mkdtempSync(join(tmpdir(), 'sb-config-mcp-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string | undefined>) => loadConfig({ ...base, ...env }, { dataDir, terminal: false });

describe('MCP_ALLOWED_ORIGINS', () => {
  it('is empty by default and takes a comma-separated list of origins, normalized', () => {
    expect(load({}).mcp.allowedOrigins).toEqual([]);
    const listed = load({ MCP_ALLOWED_ORIGINS: 'HTTP://LocalHost:6274, https://app.example.com:443,' });
    expect(listed.mcp.allowedOrigins).toEqual(['http://localhost:6274', 'https://app.example.com']);
  });

  it('refuses what is not an origin, naming the variable', () => {
    const bad = ['app.example.com', 'https://app.example.com/path', 'ftp://x.example', 'https://a b', '*', 'null'];
    for (const value of bad) {
      expect(() => load({ MCP_ALLOWED_ORIGINS: value })).toThrow(
        /^MCP_ALLOWED_ORIGINS must be origins separated by commas/,
      );
    }
  });
});

describe('sign-in limits', () => {
  it('default to 200 attempts per IP and 10 per email in 15 minutes, and take other values', () => {
    expect(load({}).signIn).toEqual({ perIp: 200, perEmail: 10, windowMs: 900_000 });
    expect(load({ SIGN_IN_LIMITS: 'ip=5,email=2' }).signIn).toEqual({ perIp: 5, perEmail: 2, windowMs: 900_000 });
    expect(load({ SIGN_IN_LIMITS: 'email=3' }).signIn).toEqual({ perIp: 200, perEmail: 3, windowMs: 900_000 });
    expect(() => load({ SIGN_IN_LIMITS: 'email=0' })).toThrow(
      'SIGN_IN_LIMITS must be ip=number and/or email=number, each at least 1, e.g. ip=1000,email=10, got "email=0"',
    );
  });
});
