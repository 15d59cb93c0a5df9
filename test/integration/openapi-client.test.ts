import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The served document generates a typed client (openapi-typescript), a flow written against those types
// type-checks (the TypeScript compiler, with the project's options), and the flow runs against the real API
// (openapi-fetch). The generated file is written under test/typed-client/generated/ (not committed).

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const clientDir = join(here, '..', 'typed-client');
const generated = join(clientDir, 'generated', 'api-types.ts');

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

function typeCheck(file: string): string[] {
  const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const program = ts.createProgram([file], { ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} `
        : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

describe('a client typed from the document', () => {
  it('generates, type-checks a flow, and runs it against the API', async () => {
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
    mkdirSync(dirname(generated), { recursive: true });
    writeFileSync(
      generated,
      `// Generated from GET /openapi.json by test/integration/openapi-client.test.ts. Do not edit.\n${astToString(await openapiTS(doc))}`,
    );

    expect(typeCheck(join(clientDir, 'flow.ts'))).toEqual([]);

    // Imported by URL so that the project's own tsc (which excludes test/typed-client) does not follow it.
    const flow = pathToFileURL(join(clientDir, 'flow.ts')).href;
    const { runTypedFlow } = (await import(flow)) as {
      runTypedFlow: (baseUrl: string) => Promise<Record<string, unknown>>;
    };
    const result = await runTypedFlow(t.url);
    expect(result.agentId).toMatch(/^agt_/);
    expect(result.ownAgentName).toBe('Typed agent');
    expect(result).toMatchObject({
      keyType: 'agent',
      keyPrefix: 'ca_agt_',
      deniedStatus: 403,
      deniedCode: 'agent_forbidden',
      hasMore: false,
    });
    expect(result.webhookSecret).toMatch(/^whsec_/);
    expect(result.listedWebhookIds).toHaveLength(1);
    // Generating the types and running the TypeScript compiler take a few seconds alone, much more on a busy machine.
  }, 300_000);
});
