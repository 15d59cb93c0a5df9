import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every relative link of README.md, docs/*.md, the decision records in docs/adr/ and the packages' READMEs reaches a
// file of the repository and, when it names an anchor, a heading or an explicit <a id> of that file; and every
// docs/….md#anchor and docs/adr/….md a code comment cites exists.

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

  it('finds a broken link when there is one', () => {
    expect(brokenLink('README.md', 'docs/adr/0020-webhook-retries.md')).toBeNull();
    expect(brokenLink('docs/adr/0054-stream-destinations.md', '../webhooks.md#the-delivery-state-machine')).toBeNull();
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
