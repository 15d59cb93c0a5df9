import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ROUTE_TABLE_COMMAND,
  ROUTE_TABLE_FILE,
  registeredRoutes,
  routeTableMarkdown,
} from '../../src/http/openapi/route-table.js';

// docs/routes.md is generated from the router; a route added, removed or renamed without regenerating it fails here.

const committed = readFileSync(new URL(`../../${ROUTE_TABLE_FILE}`, import.meta.url), 'utf8');

describe('the route table in docs/routes.md', () => {
  it('is what the router generates', () => {
    const generated = routeTableMarkdown();
    expect(committed === generated, `${ROUTE_TABLE_FILE} is out of date: run \`${ROUTE_TABLE_COMMAND}\``).toBe(true);
  });

  it('lists every route of the router, the protected-resource metadata routes included', () => {
    const routes = registeredRoutes();
    const rows = committed.split('\n').filter((line) => line.startsWith('| `'));
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(
        rows.some((row) => row.startsWith(`| \`${route.method.toUpperCase()} ${path}\` |`)),
        `${route.method} ${path}`,
      ).toBe(true);
    }
    expect(committed).toContain('| `GET /.well-known/oauth-protected-resource/v1/mcp` | public |');
    expect(committed).toMatch(
      /^\| `GET \/\.well-known\/oauth-protected-resource\/v1\/agents\/\{\w+\}\/mcp` \| public \|/m,
    );
  });
});
