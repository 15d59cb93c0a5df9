import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// npm run pack [-- --out DIR]: the tarball of every package under packages/ (each one's prepack builds its dist/
// first) into tarballs/, or DIR: what the packages' READMEs install until they are on the npm registry.

const ROOT = resolve(import.meta.dirname, '..');
export const PACK_DIR = join(ROOT, 'tarballs');

/** The name of each package under packages/, in the order of its folder's name. */
export function workspacePackages(): string[] {
  const dir = join(ROOT, 'packages');
  return readdirSync(dir)
    .sort()
    .filter((name) => existsSync(join(dir, name, 'package.json')))
    .map((name) => (JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')) as { name: string }).name);
}

// Each package's prepack rebuilds its dist/ in the checkout, so two packs at once (two terminals, two test files)
// would delete each other's builds: one at a time, through a directory whose creation is atomic.
const LOCK = join(ROOT, 'node_modules', '.switchboard-pack.lock');
const LOCK_STALE_MS = 10 * 60_000;

function withPackLock<T>(run: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A pack that died holding it leaves it behind; a pack takes well under a minute.
      if (Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > LOCK_STALE_MS)
        rmSync(LOCK, { force: true, recursive: true });
      Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    return run();
  } finally {
    rmSync(LOCK, { force: true, recursive: true });
  }
}

/** Packs every package into `out`; the tarballs' paths, one per package. */
export function packAll(out = PACK_DIR): string[] {
  return withPackLock(() => packInto(out));
}

function packInto(out: string): string[] {
  mkdirSync(out, { recursive: true });
  const args = ['pack', '--json', '--pack-destination', out, ...workspacePackages().flatMap((n) => ['-w', n])];
  // --json's array is the last thing written; each prepack's build output comes before it.
  const stdout = execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const packed = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1)) as Array<{ filename: string }>;
  return packed.map((p) => join(out, p.filename));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--out');
  const tarballs = packAll(at > 0 ? resolve(process.argv[at + 1]!) : PACK_DIR);
  for (const file of tarballs) process.stdout.write(`${relative(process.cwd(), file)}\n`);
}
