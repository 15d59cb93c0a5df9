import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientDocument, GENERATED_FILES } from '../../scripts/client-types.js';

describe("@switchboard/client's generated files", () => {
  const doc = clientDocument();
  for (const [file, generate] of Object.entries(GENERATED_FILES)) {
    it(`${file} is what the current OpenAPI document makes (npm run client:types)`, async () => {
      const committed = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      expect(committed === (await generate(doc)), `${file} is stale: run npm run client:types`).toBe(true);
    });
  }
});
