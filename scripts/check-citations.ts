// Comments cite docs/ pages, never the history of the work: checked by `npm run lint` over src/, workers/, test/,
// bench/ and scripts/ (the rules are in scripts/citations.ts). Each finding is printed as file:line with its reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { citationsIn } from './citations.js';

const root = resolve(import.meta.dirname, '..');
const FOLDERS = ['src', 'workers', 'test', 'bench', 'scripts'];

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return listFiles(path);
    return /\.(ts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

function main(): void {
  const problems = FOLDERS.flatMap((folder) => listFiles(join(root, folder))).flatMap((file) =>
    citationsIn(readFileSync(file, 'utf8')).map((c) => `${relative(root, file)}:${c.line}: ${c.reason}: ${c.text}`),
  );
  if (problems.length === 0) return;
  console.error(problems.join('\n'));
  process.exitCode = 1;
}

main();
