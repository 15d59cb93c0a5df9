import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOCS_COMMAND, CONFIG_DOCS_FILE, configDocsMarkdown } from '../../src/platform/config-docs.js';
import { ENV_NAMES } from '../../src/platform/config.js';

// The tables of docs/configuration.md are written from the variables; one changed without running the generator
// fails here.

const committed = readFileSync(new URL(`../../${CONFIG_DOCS_FILE}`, import.meta.url), 'utf8');
const rows = committed.split('\n').filter((line) => line.startsWith('| `'));
const rowOf = (name: string) => rows.find((row) => row.startsWith(`| \`${name}\` |`));

describe('the configuration tables in docs/configuration.md', () => {
  it('are what the variables generate', () => {
    expect(committed === configDocsMarkdown(committed), `run \`${CONFIG_DOCS_COMMAND}\``).toBe(true);
  });

  it('list every variable with its default, allowed values and meaning', () => {
    for (const name of ENV_NAMES) expect(rowOf(name), name).toMatch(/^\| `[A-Z_]+` \| [^|]+ \| [^|]+ \| [^|]+ \|$/);
    expect(rowOf('WEBHOOK_TIMEOUT_MS')).toBe(
      '| `WEBHOOK_TIMEOUT_MS` | 10000 | a whole number of milliseconds between 100 and 120000 | per-attempt timeout, ' +
        'from when a connection takes the request, and the same bound again for connecting ' +
        '([ADR 0080](adr/0080-deliveries-per-job.md)) |',
    );
  });

  it('would be rewritten when a default changed', () => {
    const stale = committed.replace('| `WEBHOOK_TIMEOUT_MS` | 10000 |', '| `WEBHOOK_TIMEOUT_MS` | 5000 |');
    expect(stale).not.toBe(committed);
    expect(configDocsMarkdown(stale)).toBe(committed);
  });
});
