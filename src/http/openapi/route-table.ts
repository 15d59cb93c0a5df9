import type { Deps } from '../../app/deps.js';
import type { Access } from '../../auth/access.js';
import { ApiRouter } from '../router.js';
import { routeModules } from '../routes/index.js';
import { buildOpenApiDocument } from './document.js';
import { TAGS, type Tag } from './route-doc.js';

// docs/routes.md, generated from the OpenAPI document of the router (`npm run docs:routes`), so the table lists
// exactly the routes the service serves; test/unit/route-table.test.ts fails when the committed file differs.

export const ROUTE_TABLE_FILE = 'docs/routes.md';
export const ROUTE_TABLE_COMMAND = 'npm run docs:routes';

interface Operation {
  summary: string;
  tags: string[];
  'x-access': Access;
  parameters?: Array<{ $ref?: string }>;
}

/** Route modules only close over their dependencies: registering them reads none, and this proves it. */
const noDeps = new Proxy({} as Deps, {
  get(_target, key) {
    throw new Error(`registering the routes read deps.${String(key)}; the route table is built without dependencies`);
  },
});

/** Every route of the API router, as registered by the route modules. */
export function registeredRoutes(): ApiRouter['routes'] {
  const api = new ApiRouter(noDeps);
  for (const register of routeModules) register(api, noDeps);
  return api.routes;
}

function describeAccess(access: Access): string {
  switch (access.kind) {
    case 'public':
      return 'public';
    case 'authenticated':
      return 'session or key';
    case 'admin':
      return 'admin session';
    case 'scope':
      return access.agentScope ? `\`${access.scope}\` / \`${access.agentScope}\`` : `\`${access.scope}\``;
    case 'agentKey':
      return `the per-agent key of \`{${access.param}}\` only`;
    case 'agentKeyMinting':
      return 'admin session, or an account key with `write:agents` (`agentKeyMinting` policy)';
  }
}

const HEADER = `# Routes

<!-- Generated from the router by \`${ROUTE_TABLE_COMMAND}\` (src/http/openapi/route-table.ts): do not edit. -->

Every route of the API router, grouped by the tags of the OpenAPI document (\`/openapi.json\`, rendered at \`/docs\`),
which says more about each: parameters, bodies, responses, every error code.

Access: **public**; **session or key** (any credential of the account; per-agent keys excluded); **admin session**
(owner/admin); or a scope: \`account scope\` / \`agent scope\` means sessions pass, account keys need the account scope,
and a per-agent key needs the agent scope and may only name its own agent; a route without an agent scope is closed
to per-agent keys (403 \`agent_forbidden\`). The MCP endpoints also take an OAuth access token issued for them
([mcp.md](mcp.md#connecting-with-oauth-hosted-connectors-ides-no-key-to-paste)). **Idempotent** routes honour
\`Idempotency-Key\` ([api-keys.md](api-keys.md#idempotent-requests)).
`;

const OUTSIDE_THE_ROUTER: Array<[route: string, access: string]> = [
  ['`GET /docs` (and its assets under `/docs/`)', 'public: the API reference (Swagger UI over `/openapi.json`)'],
  [
    '`/oauth/*`: the authorization server (`auth`, `token`, `reg`, `token/revocation`, `jwks`, `interaction/:uid`)',
    "public (OAuth's own client authentication, PKCE and the consent page)",
  ],
  ['`GET /metrics`, `/admin/queues` (bull-board)', 'HTTP Basic `OPS_USERNAME`/`OPS_PASSWORD`; 404 when unset'],
  [
    '`/dashboard/*`: the pages of [dashboard.md](dashboard.md)',
    "a person's session, in a cookie, with a CSRF token per form; each page calls the API above with it",
  ],
  [
    '`/portal/<token>/*`: the portal pages of a portal link',
    'the token in the path; each page calls `/v1/portal/…` with it',
  ],
];

const table = (head: string[], rows: string[][]) =>
  [head, head.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

/** The Markdown of docs/routes.md. */
export function routeTableMarkdown(): string {
  const doc = buildOpenApiDocument(registeredRoutes(), 'http://localhost:3000');
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  const rows = new Map<string, string[][]>(Object.keys(TAGS).map((tag) => [tag, []]));
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const idempotent = op.parameters?.some((p) => p.$ref?.endsWith('/IdempotencyKey')) ? ' (idempotent)' : '';
      const route = `\`${method.toUpperCase()} ${path}\``;
      rows.get(op.tags[0]!)!.push([route, describeAccess(op['x-access']), op.summary + idempotent]);
    }
  }
  const sections = [...rows]
    .filter(([, r]) => r.length > 0)
    .map(([tag, r]) => [`## ${tag}`, `${TAGS[tag as Tag]}.`, table(['route', 'access', 'what it does'], r)])
    .map((parts) => parts.join('\n\n'));
  const outside = [
    '## Outside the API router',
    'Served by their own middleware, before the router, so they are not operations of `/openapi.json`:',
    table(['route', 'access'], OUTSIDE_THE_ROUTER),
  ].join('\n\n');
  return `${[HEADER.trimEnd(), ...sections, outside].join('\n\n')}\n`;
}
