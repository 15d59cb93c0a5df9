import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// A package's TypeScript source as the ES modules its build emits, file by file (`./x.ts` imports become `./x.js`),
// for serving to a page in headless chromium: what runs there is the package's own code, with no Node around it.

/** Every module under `srcDir`, as JavaScript keyed by its served path (`${base}/generated/operations.js`). */
export function transpiledModules(srcDir: string, base: string): Map<string, string> {
  const modules = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), {
          fileName: entry.name,
          compilerOptions: {
            target: ts.ScriptTarget.ES2022,
            module: ts.ModuleKind.ESNext,
            verbatimModuleSyntax: true,
            rewriteRelativeImportExtensions: true,
          },
        });
        modules.set(`${base}/${relative(srcDir, path).replace(/\.ts$/, '.js')}`, outputText);
      }
    }
  };
  walk(srcDir);
  return modules;
}
