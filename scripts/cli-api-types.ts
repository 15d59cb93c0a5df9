import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../src/http/openapi/document.js';
import { registeredRoutes } from '../src/http/openapi/route-table.js';

// npm run cli:types: the `switchboard` CLI calls the API through openapi-fetch typed by
// packages/cli/src/generated/api-types.ts, generated here from the same document GET /openapi.json serves; test/unit/cli-api-types.test.ts fails when the
// committed file is stale.

export const CLI_API_TYPES_FILE = 'packages/cli/src/generated/api-types.ts';

export async function generateCliApiTypes(): Promise<string> {
  const doc = buildOpenApiDocument(registeredRoutes(), 'http://localhost:3000') as unknown as Parameters<
    typeof openapiTS
  >[0];
  return `// Generated from the service's OpenAPI document by npm run cli:types at the repository root. Do not edit.\n${astToString(await openapiTS(doc))}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(new URL(`../${CLI_API_TYPES_FILE}`, import.meta.url), await generateCliApiTypes());
  process.stdout.write(`wrote ${CLI_API_TYPES_FILE}\n`);
}
