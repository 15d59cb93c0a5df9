// The house rules on imports between folders, checked by `npm run lint`:
// - no folder imports a folder that imports it back, directly or around a longer loop;
// - src/platform imports no other folder of src/;
// - a resource folder never imports koa, src/http or workers/; workers/ never import src/http;
// - a package (packages/*: what integrators install) imports nothing outside its own folder but other packages by
//   their names: never the service (src/, workers/) by a path, nor a dependency its package.json does not declare;
//   and the receiver library and the API client no `node:` module, as they run where only WebCrypto and fetch do
//   (docs/adr/0085-receiver-library.md).
// ESLint's import rules see cycles between files only; a cycle between folders can run through files that do not
// import each other, so the graph is built here, from the TypeScript syntax tree, in well under a second.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

/**
 * The one exception: `Deps` (src/app/deps.ts) is the composition root's description of what it hands every
 * folder, so it names types of the folders it wires while they import it. A type import is erased at build and
 * orders nothing at run time; every other import, type or value, counts.
 */
const DEPS_FILE = 'src/app/deps.ts';

/** Folders that may import koa and src/http: the HTTP surface itself and the composition root. */
const HTTP_FOLDERS = new Set(['http', 'app', 'src']);

interface Import {
  from: string;
  specifier: string;
  target: string | null;
  typeOnly: boolean;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return listFiles(path);
    return /\.(ts|js)$/.test(e.name) ? [path] : [];
  });
}

/** `src/keys/keys.service.ts` → `keys`; src/main.ts and its siblings → `src`; anything under workers/ → `workers`. */
function folderOf(file: string): string {
  const parts = relative(root, file).split(sep);
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length === 2 ? 'src' : parts[1]!;
}

/** The TypeScript of each package: its src/ and bin/ (dist/ and node_modules are built or installed, not written). */
function packageSources(): string[] {
  const dir = join(root, 'packages');
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => ['src', 'bin'].map((sub) => join(dir, e.name, sub)))
    .filter((sub) => existsSync(sub))
    .flatMap(listFiles);
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const target = specifier.startsWith('.') ? resolve(dirname(file), specifier.replace(/\.js$/, '.ts')) : null;
    found.push({ from: file, specifier, target, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, isTypeOnly(node));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) add(arg.text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const lit = node.argument.literal;
      if (ts.isStringLiteral(lit)) add(lit.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every folder → folder edge, with the files that make it. */
function folderGraph(imports: Import[]): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const i of imports) {
    if (!i.target || (i.typeOnly && relative(root, i.target) === DEPS_FILE)) continue;
    const [a, b] = [folderOf(i.from), folderOf(i.target)];
    if (a === b) continue;
    const edges = graph.get(a) ?? new Map<string, string[]>();
    graph.set(a, edges);
    edges.set(b, [...(edges.get(b) ?? []), relative(root, i.from)]);
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan): each is at least one cycle. */
function cyclesOf(graph: Map<string, Map<string, string[]>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return components;
}

/**
 * Imports a package's file makes only in a checkout, from the repository's development dependencies: the CLI's bin
 * runs its TypeScript through tsx when there is no dist/ (docs/adr/0086-the-cli-package.md); installed, it never does.
 */
const CHECKOUT_ONLY: Record<string, string[]> = { 'packages/cli/bin/switchboard.js': ['tsx'] };

/** Packages that run on WebCrypto-only runtimes (browsers, edge, Deno): no `node:` import. */
const WEBCRYPTO_ONLY = new Set(['packages/webhooks', 'packages/client']);

/** `packages/cli/src/listen.ts` → `packages/cli`; null outside packages/. */
function packageOf(file: string): string | null {
  const parts = relative(root, file).split(sep);
  return parts[0] === 'packages' && parts[1] ? `packages/${parts[1]}` : null;
}

/** The dependencies a package declares, by name: the only bare specifiers it may import (besides node:). */
function declaredDependencies(pkg: string): Set<string> {
  const manifest = JSON.parse(readFileSync(join(root, pkg, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  return new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
}

/** A bare specifier's package name: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

function packageViolations(imports: Import[]): string[] {
  const problems: string[] = [];
  const declared = new Map<string, Set<string>>();
  for (const i of imports) {
    const pkg = packageOf(i.from);
    if (!pkg) continue;
    const file = relative(root, i.from);
    if (i.target) {
      if (packageOf(i.target) !== pkg)
        problems.push(`${file} imports ${relative(root, i.target)}: a package imports nothing outside its folder`);
      continue;
    }
    if (i.specifier.startsWith('node:')) {
      if (WEBCRYPTO_ONLY.has(pkg)) problems.push(`${file} imports ${i.specifier}: it runs where Node does not`);
      continue;
    }
    if (CHECKOUT_ONLY[file]?.includes(packageName(i.specifier))) continue;
    if (!declared.has(pkg)) declared.set(pkg, declaredDependencies(pkg));
    if (!declared.get(pkg)!.has(packageName(i.specifier)))
      problems.push(`${file} imports ${i.specifier}: not a dependency in ${pkg}/package.json`);
  }
  return problems;
}

function layerViolations(imports: Import[]): string[] {
  const problems: string[] = [];
  for (const i of imports) {
    const file = relative(root, i.from);
    const from = folderOf(i.from);
    const to = i.target ? relative(root, i.target) : i.specifier;
    const toFolder = i.target ? folderOf(i.target) : null;
    const koa = !i.target && /^(koa|@koa\/)/.test(i.specifier);
    if (from === 'platform' && toFolder && toFolder !== 'platform') {
      problems.push(`${file} imports ${to}: src/platform imports no other folder`);
    } else if (from === 'workers' && toFolder === 'http') {
      problems.push(`${file} imports ${to}: workers never import src/http`);
    } else if (
      file.startsWith('src/') &&
      !HTTP_FOLDERS.has(from) &&
      (koa || toFolder === 'http' || toFolder === 'workers')
    ) {
      problems.push(`${file} imports ${to}: a resource folder never imports koa, src/http or workers/`);
    }
  }
  return problems;
}

function main(): void {
  const files = [...listFiles(join(root, 'src')), ...listFiles(join(root, 'workers'))];
  const imports = files.flatMap(importsOf);
  const graph = folderGraph(imports);
  const packageImports = packageSources().flatMap(importsOf);
  const problems = [...layerViolations(imports), ...packageViolations(packageImports)];
  for (const component of cyclesOf(graph)) {
    const inside = new Set(component);
    const edges = component.flatMap((a) =>
      [...(graph.get(a) ?? [])]
        .filter(([b]) => inside.has(b))
        .map(([b, via]) => `  ${a} → ${b} (${[...new Set(via)].join(', ')})`),
    );
    problems.push(`folders import each other around a cycle: ${component.join(', ')}\n${edges.join('\n')}`);
  }
  if (problems.length === 0) return;
  console.error(problems.join('\n'));
  process.exitCode = 1;
}

main();
