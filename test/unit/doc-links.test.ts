import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commentsOf } from '../../scripts/citations.js';

// Every relative link of README.md, docs/*.md, the decision records in docs/adr/ and the packages' READMEs reaches a
// file of the repository and, when it names an anchor, a heading or an explicit <a id> of that file; and every
// docs/….md#anchor and docs/adr/….md a code comment cites exists; and every repository file a code comment or a
// docs/ page names (src/…, workers/…, test/…) exists. The decision records are left out of that last check: each
// names the files of its day.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const markdownIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${dir}/${f}`);
const packageReadmes = readdirSync(join(ROOT, 'packages'))
  .map((name) => `packages/${name}/README.md`)
  .filter((file) => existsSync(join(ROOT, file)));
const pages = ['README.md', ...markdownIn('docs'), ...markdownIn('docs/adr'), ...packageReadmes];

/** The text outside fenced code blocks and inline code, where a Markdown link is a link. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set([...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!));
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Why a link from `from` to `target` (path#anchor, relative to `from`) does not resolve, or null when it does. */
function brokenLink(from: string, target: string): string | null {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? from : relative(ROOT, join(ROOT, dirname(from), decodeURIComponent(path)));
  if (file.startsWith('..') || !existsSync(join(ROOT, file))) return `${target}: no file ${file}`;
  if (anchor === undefined) return null;
  if (statSync(join(ROOT, file)).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor into ${file}`;
  return anchorsOf(read(file)).has(anchor) ? null : `${target}: no heading or <a id> "${anchor}" in ${file}`;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.includes('node_modules') && !f.includes('generated'))
    .map((f) => `${dir}/${f}`);
}

/** Folders whose files a comment or a page names by their path from the repository's root. */
const ROOTED = /(?<![\w./-])((?:src|workers|test|bench|scripts|migrations|packages|docs|\.ci)\/[\w./-]*\w)/g;
/** Written by a build or a test, never committed (.gitignore). */
const GENERATED = ['test/typed-client/generated'];

/** Whether `path` (cited in `from`) is a file or folder of the repository: a package's files may be named from it. */
function exists(from: string, path: string): boolean {
  const pkg = from.match(/^packages\/[^/]+\//)?.[0] ?? '';
  const candidates = [path, path.replace(/\.js$/, '.ts'), `${path}.ts`].flatMap((c) => [c, pkg + c]);
  return GENERATED.some((g) => path.startsWith(g)) || candidates.some((c) => existsSync(join(ROOT, c)));
}

/** The repository paths `text` names that are no file, each with its line (1-based, from `line`). */
function missingPaths(from: string, text: string, line = 1): string[] {
  return text
    .split('\n')
    .flatMap((row, i) =>
      [...row.matchAll(ROOTED)].filter((m) => !exists(from, m[1]!)).map((m) => `${from}:${line + i}: ${m[1]}`),
    );
}

describe('documentation links', () => {
  it('every relative link of README.md, docs/ and docs/adr/ resolves, anchors included', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const m of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: …
        const why = brokenLink(page, target);
        if (why) broken.push(`${page}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every docs/ page a code comment cites exists, with the anchor it names', () => {
    const broken: string[] = [];
    const self = relative(ROOT, fileURLToPath(import.meta.url)); // its own examples of broken links below
    for (const file of ['src', 'workers', 'test', 'bench', 'migrations', 'scripts'].flatMap(sourceFiles)) {
      if (file === self) continue;
      for (const m of read(file).matchAll(/\bdocs\/((?:adr\/)?[\w-]+\.md)(#[\w-]+)?/g)) {
        const why = brokenLink('README.md', `docs/${m[1]}${m[2] ?? ''}`);
        if (why) broken.push(`${file}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every repository file a code comment or a docs/ page names exists', () => {
    const code = ['src', 'workers', 'test', 'bench', 'migrations', 'scripts', 'packages'].flatMap(sourceFiles);
    const missing = [
      // Only a file naming a missing path anywhere is parsed for its comments (a string may name a fixture).
      ...code
        .filter((file) => missingPaths(file, read(file)).length > 0)
        .flatMap((file) => commentsOf(read(file)).flatMap((c) => missingPaths(file, c.text, c.line))),
      ...pages.filter((page) => !page.startsWith('docs/adr/')).flatMap((page) => missingPaths(page, read(page))),
    ];
    expect(missing).toEqual([]);
  });

  it('finds a path that is no file when there is one', () => {
    expect(missingPaths('src/a.ts', '// see src/platform/config.ts and src/platform/clock.js')).toEqual([]);
    expect(missingPaths('src/a.ts', '// (src/platform/gone.ts)\n// docs/gone.md#x')).toEqual([
      'src/a.ts:1: src/platform/gone.ts',
      'src/a.ts:2: docs/gone.md',
    ]);
    expect(missingPaths('packages/client/README.md', 'src/index.ts')).toEqual([]);
    expect(missingPaths('docs/api.md', 'owner/name/docs/specification/x and test/typed-client/generated/')).toEqual([]);
  });

  it('finds a broken link when there is one', () => {
    expect(brokenLink('README.md', 'docs/adr/0020-webhook-retries.md')).toBeNull();
    expect(
      brokenLink('docs/adr/0054-stream-destinations.md', '../webhook-retries.md#the-delivery-state-machine'),
    ).toBeNull();
    expect(brokenLink('docs/adr/0001-error-shape.md', '0017-webhook-targets.md')).toBeNull();
    expect(
      brokenLink(
        'docs/README.md',
        '../README.md#quickstart-from-signup-to-a-signed-webhook-on-your-machine-and-an-mcp-client',
      ),
    ).toBeNull();
    expect(brokenLink('README.md', 'docs/webhooks.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink('docs/adr/0001-error-shape.md', 'webhooks.md')).toMatch(/no file/);
    expect(brokenLink('README.md', 'docs/adr/0020-webhook-retry.md')).toMatch(/no file/);
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toMatch(/no file/);
  });
});
