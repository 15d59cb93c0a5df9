import type { z } from 'zod';
import { TRACING_VARIABLES } from './config-otel.js';
import { BATCHING_PROFILES, VARIABLES, type VariableDoc } from './config-variables.js';

// The tables of docs/configuration.md, written from the variables themselves (npm run docs:config); the rest of
// that page is prose. test/unit/config-docs.test.ts fails when the committed tables and the variables disagree.

export const CONFIG_DOCS_FILE = 'docs/configuration.md';
export const CONFIG_DOCS_COMMAND = 'npm run docs:config';

type Variables = Record<string, { schema: z.ZodType; doc: VariableDoc }>;

const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string) => `\`${text}\``;

function defaultOf({ schema, doc }: { schema: z.ZodType; doc: VariableDoc }): string {
  if (doc.defaultText) return doc.defaultText;
  const parsed = schema.safeParse(undefined);
  const value: unknown = parsed.success ? parsed.data : undefined;
  if (value === undefined) return 'unset';
  if (Array.isArray(value)) return code(value.join(','));
  return typeof value === 'string' ? code(value) : String(value);
}

function variableTable(vars: Variables): string[] {
  const rows = Object.entries(vars).map(
    ([name, v]) => `| ${code(name)} | ${cell(defaultOf(v))} | ${cell(v.doc.wanted)} | ${cell(v.doc.about)} |`,
  );
  return ['| variable | default | allowed values | meaning |', '|---|---|---|---|', ...rows];
}

function batchingTable(): string[] {
  const fields = ['armWindowMs', 'deliveriesPerJob', 'batchWindowMs', 'recordWindowMs'] as const;
  const head = [
    'commits wait for others (ms)',
    'first attempts per job',
    "a worker's statements wait (ms)",
    "an unordered delivery's record waits (ms)",
  ];
  const rows = Object.entries(BATCHING_PROFILES).map(
    ([name, p]) => `| ${code(name)} | ${fields.map((f) => p[f]).join(' | ')} |`,
  );
  return [`| profile | ${head.join(' | ')} |`, `|---|${fields.map(() => '---:').join('|')}|`, ...rows];
}

const BLOCKS: Record<string, () => string[]> = {
  variables: () => variableTable(VARIABLES),
  batching: batchingTable,
  tracing: () => variableTable(TRACING_VARIABLES),
};

/** `page` with each generated block (between `<!-- config:NAME -->` and `<!-- /config:NAME -->`) written anew. */
export function configDocsMarkdown(page: string): string {
  let out = page;
  for (const [name, render] of Object.entries(BLOCKS)) {
    const open = `<!-- config:${name} (${CONFIG_DOCS_COMMAND} writes this table) -->`;
    const close = `<!-- /config:${name} -->`;
    const from = out.indexOf(open);
    const to = out.indexOf(close);
    if (from < 0 || to < from) throw new Error(`${CONFIG_DOCS_FILE}: the markers of the ${name} table are missing`);
    out = `${out.slice(0, from + open.length)}\n${render().join('\n')}\n${out.slice(to)}`;
  }
  return out;
}
