import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// How npm start's children run (docs/processes.md): the compiled JavaScript in dist/ when the checkout has it and
// it is not older than any source file (`npm run build`), else the TypeScript through tsx's loader, in the child's
// own process. Compiled children start faster and hold less memory; the loader keeps a checkout without a build
// working.

export interface ChildLaunch {
  entry: string;
  execArgv: string[];
  compiled: boolean;
}

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SOURCES = ['src', 'workers', 'migrations'];

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return listTs(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every source file has its compiled file in dist/, written after the source last changed. */
export function distIsFresh(root = ROOT): boolean {
  try {
    return SOURCES.every((dir) =>
      listTs(join(root, dir)).every((file) => {
        const built = join(root, 'dist', relative(root, file)).replace(/\.ts$/, '.js');
        return statSync(built).mtimeMs >= statSync(file).mtimeMs;
      }),
    );
  } catch {
    return false; // no dist/, or a source file with no compiled file
  }
}

/** Under dist/ (a build, the image) the children are compiled too; from the sources, when dist/ is fresh. */
export function childLaunch(): ChildLaunch {
  const runningCompiled = import.meta.url.endsWith('.js');
  if (runningCompiled || distIsFresh()) {
    const dist = runningCompiled ? resolve(ROOT) : join(ROOT, 'dist');
    return {
      entry: join(dist, 'src', 'supervised.js'),
      execArgv: ['--import', pathToFileURL(join(dist, 'src', 'instrumentation.js')).href],
      compiled: true,
    };
  }
  return {
    entry: join(ROOT, 'src', 'supervised.ts'),
    execArgv: [
      '--import',
      import.meta.resolve('tsx'),
      '--import',
      pathToFileURL(join(ROOT, 'src', 'instrumentation.ts')).href,
    ],
    compiled: false,
  };
}
