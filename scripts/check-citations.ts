// Comments cite docs/ pages, never the history of the work: checked by `npm run lint` over src/, workers/, packages/, test/,
// bench/ and scripts/ (the rules are in scripts/citations.ts). Each finding is printed as file:line with its reason.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { citationsIn } from './citations.js';

const root = resolve(import.meta.dirname, '..');
const FOLDERS = ['src', 'workers', 'packages', 'test', 'bench', 'scripts'];

/** The repository's files under those folders, tracked or new, leaving out what .gitignore does (generated code). */
function listFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...FOLDERS], {
    cwd: root,
    encoding: 'utf8',
  });
  return out.split('\n').filter((file) => /\.(ts|js|mjs)$/.test(file));
}

function main(): void {
  const problems = listFiles().flatMap((file) =>
    existsSync(join(root, file))
      ? citationsIn(readFileSync(join(root, file), 'utf8')).map((c) => `${file}:${c.line}: ${c.reason}: ${c.text}`)
      : [],
  );
  if (problems.length === 0) return;
  console.error(problems.join('\n'));
  process.exitCode = 1;
}

main();
