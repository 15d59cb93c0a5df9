import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_API_TYPES_FILE, generateCliApiTypes } from '../../scripts/cli-api-types.js';

describe('the CLI API types', () => {
  it('are generated from the current OpenAPI document (npm run cli:types)', async () => {
    const committed = readFileSync(new URL(`../../${CLI_API_TYPES_FILE}`, import.meta.url), 'utf8');
    expect(committed === (await generateCliApiTypes()), `${CLI_API_TYPES_FILE} is stale: run npm run cli:types`).toBe(
      true,
    );
  });
});
