import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ADR_INDEX_COMMAND,
  ADR_INDEX_FILE,
  adrIndexMarkdown,
  parseRecord,
  readRecords,
} from '../../scripts/adr-records.js';

// docs/adr/README.md is generated from the decision records; a record added, retitled or superseded without
// regenerating the index fails here, and so does a record that lacks its status or one of its sections.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const record = (status: string, sections = ['Context', 'Decision', 'Consequences']) =>
  `# 0007. Key secrets\n\nStatus: ${status}\n\n${sections.map((s) => `## ${s}\n\nText.\n`).join('\n')}`;

describe('the decision records of docs/adr', () => {
  it('are what the committed index lists', () => {
    const committed = readFileSync(join(ROOT, ADR_INDEX_FILE), 'utf8');
    const generated = adrIndexMarkdown(readRecords(ROOT));
    expect(committed === generated, `${ADR_INDEX_FILE} is out of date: run \`${ADR_INDEX_COMMAND}\``).toBe(true);
  });

  it('are numbered from 0001 without a gap', () => {
    const numbers = readRecords(ROOT).map((r) => Number(r.number));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('each carry a title, a status and Context, Decision and Consequences in that order', () => {
    expect(parseRecord('0007-key-secrets.md', record('Accepted'))).toEqual({
      number: '0007',
      file: '0007-key-secrets.md',
      title: 'Key secrets',
      status: 'Accepted',
      supersededBy: null,
    });
    const superseded = parseRecord('0007-key-secrets.md', record('Superseded by [0012](0012-prices.md)'));
    expect(superseded.supersededBy).toBe('0012-prices.md');
    expect(() => parseRecord('0007-key-secrets.md', record('Proposed'))).toThrow(/Status/);
    expect(() => parseRecord('0007-key-secrets.md', record('Superseded by [0012](0013-x.md)'))).toThrow(/links/);
    expect(() => parseRecord('0008-key-secrets.md', record('Accepted'))).toThrow(/first line/);
    expect(() => parseRecord('key-secrets.md', record('Accepted'))).toThrow(/NNNN-slug/);
    expect(() => parseRecord('0007-key-secrets.md', record('Accepted', ['Context', 'Consequences']))).toThrow(
      /## Decision/,
    );
    expect(() =>
      parseRecord('0007-key-secrets.md', record('Accepted', ['Decision', 'Context', 'Consequences'])),
    ).toThrow(/## Decision/);
  });
});
