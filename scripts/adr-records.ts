import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The decision records of docs/adr/ and their index, docs/adr/README.md, which `npm run docs:adr` writes from them.

export const ADR_DIR = 'docs/adr';
export const ADR_INDEX_FILE = `${ADR_DIR}/README.md`;
export const ADR_INDEX_COMMAND = 'npm run docs:adr';

export interface DecisionRecord {
  number: string;
  file: string;
  title: string;
  /** `Accepted`, or `Superseded by [NNNN](NNNN-slug.md)`, as the record's status line says it. */
  status: string;
  supersededBy: string | null;
}

const RECORD_FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const STATUS = /^Status: (Accepted|Superseded by \[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\))$/m;
const SECTIONS = ['## Context', '## Decision', '## Consequences'];

/** One record, checked: its heading carries the file's number, a status line, and the three sections in order. */
export function parseRecord(file: string, markdown: string): DecisionRecord {
  const number = RECORD_FILE.exec(file)?.[1];
  if (!number) throw new Error(`${file}: a record is named NNNN-slug.md`);
  const heading = /^# (\d{4})\. (\S.*)$/.exec(markdown.split('\n', 1)[0]!);
  if (heading?.[1] !== number) throw new Error(`${file}: the first line must be "# ${number}. <title>"`);
  const status = STATUS.exec(markdown);
  if (!status) throw new Error(`${file}: no "Status: Accepted" or "Status: Superseded by [NNNN](NNNN-slug.md)" line`);
  if (status[2] !== undefined && !status[3]!.startsWith(`${status[2]}-`)) {
    throw new Error(`${file}: the status names ${status[2]} but links ${status[3]}`);
  }
  let from = 0;
  for (const section of SECTIONS) {
    const at = markdown.indexOf(`\n${section}\n`, from);
    if (at < 0) throw new Error(`${file}: no "${section}" section after the previous one`);
    from = at + 1;
  }
  return { number, file, title: heading[2]!, status: status[1]!, supersededBy: status[3] ?? null };
}

/** Every record of the folder, by number; a number used twice or a superseding record that is absent throws. */
export function readRecords(root: string): DecisionRecord[] {
  const dir = join(root, ADR_DIR);
  const files = readdirSync(dir)
    .filter((f) => f !== 'README.md')
    .sort();
  const records = files.map((f) => parseRecord(f, readFileSync(join(dir, f), 'utf8')));
  for (const [i, record] of records.entries()) {
    if (records[i - 1]?.number === record.number) throw new Error(`${record.file}: number ${record.number} twice`);
    if (record.supersededBy && !files.includes(record.supersededBy)) {
      throw new Error(`${record.file}: superseded by ${record.supersededBy}, which does not exist`);
    }
  }
  return records;
}

export function adrIndexMarkdown(records: DecisionRecord[]): string {
  const rows = records.map((r) => `| [${r.number}](${r.file}) | ${r.title} | ${r.status} |`);
  return `# Decision records

Why the code is as it is where the interface (the routes and fields of the API reference, \`/docs\`) says nothing or
leaves a choice open: one record per decision, each with its context, the decision and its consequences. A record a
later one replaces says so in its status and keeps its file, so links to it still lead somewhere. Code comments cite
a record by its path (\`docs/adr/0020-webhook-retries.md\`).

This index is generated from the records by \`${ADR_INDEX_COMMAND}\`; a test fails when it is out of date.

| Record | Title | Status |
|---|---|---|
${rows.join('\n')}
`;
}
