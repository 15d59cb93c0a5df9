import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ADR_INDEX_FILE, adrIndexMarkdown, readRecords } from './adr-records.js';

// npm run docs:adr: regenerates docs/adr/README.md from the decision records.
const root = resolve(import.meta.dirname, '..');
writeFileSync(join(root, ADR_INDEX_FILE), adrIndexMarkdown(readRecords(root)));
process.stdout.write(`wrote ${ADR_INDEX_FILE}\n`);
