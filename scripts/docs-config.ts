import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_DOCS_FILE, configDocsMarkdown } from '../src/platform/config-docs.js';

// npm run docs:config: writes the tables of docs/configuration.md from src/platform/config-variables.ts.
const file = new URL(`../${CONFIG_DOCS_FILE}`, import.meta.url);
writeFileSync(file, configDocsMarkdown(readFileSync(file, 'utf8')));
process.stdout.write(`wrote ${CONFIG_DOCS_FILE}\n`);
