import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { buildOpenApiDocument } from '../src/http/openapi/document.js';
import { registeredRoutes } from '../src/http/openapi/route-table.js';

// npm run client:types: what @switchboard/client (and the CLI, through it) knows of the API, generated from the
// document GET /openapi.json serves into packages/client/src/generated/. Each file is one entry of GENERATED_FILES,
// a function of the document; test/unit/client-types.test.ts fails when a committed one differs from what it makes.

type Document = ReturnType<typeof buildOpenApiDocument>;
type Json = Record<string, unknown>;

const HEADER =
  "// Generated from the service's OpenAPI document by npm run client:types at the repository root. Do not edit.\n";
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** The types of every path, operation and component (openapi-typescript). */
async function apiTypes(doc: Document): Promise<string> {
  return `${HEADER}${astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]))}`;
}

/** Every operation by its operationId: its method, its path, and whether it takes an Idempotency-Key. */
async function operationTable(doc: Document): Promise<string> {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as { operationId?: string; parameters?: Array<Json> } | undefined;
      if (!op?.operationId) continue;
      const keyed = (op.parameters ?? []).some((p) =>
        JSON.stringify(p).includes('"#/components/parameters/IdempotencyKey"'),
      );
      rows.push(
        `  ${op.operationId}: { method: '${method.toUpperCase()}', path: '${path}', idempotencyKey: ${keyed} },`,
      );
    }
  }
  const source = `${HEADER}
/** Each operation of the API: how it is called. The client makes one method of each. */
export const OPERATIONS = {
${rows.join('\n')}
} as const;
`;
  // Formatted as the repository's own files are, so `npm run lint` checks it like them.
  const options = await resolveConfig(new URL('../package.json', import.meta.url));
  return format(source, { ...options, parser: 'typescript' });
}

export const GENERATED_FILES: Record<string, (doc: Document) => string | Promise<string>> = {
  'packages/client/src/generated/api-types.ts': apiTypes,
  'packages/client/src/generated/operations.ts': operationTable,
};

/** The document the generated files are made from (the server URL is a placeholder: a client is given its own). */
export const clientDocument = (): Document => buildOpenApiDocument(registeredRoutes(), 'http://localhost:3000');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const doc = clientDocument();
  for (const [file, generate] of Object.entries(GENERATED_FILES)) {
    writeFileSync(new URL(`../${file}`, import.meta.url), await generate(doc));
    process.stdout.write(`wrote ${file}\n`);
  }
}
