import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

// Files the service generates for itself on a development machine (.data/app-secret, .data/ops-credentials).
// Several processes may start at once (npm start and the test suite's workers): the first to create a file wins
// and every process reads the same value, never a half-written one.

/** The file's content (trimmed); when it does not exist yet, `make()` is written to it first, readable by its owner only. */
export function readOrCreateDevFile(file: string, make: () => string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true });
  // Written whole under a private name, then linked into place: link fails if another process got there first.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${make()}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}

/** A random secret of `bytes` bytes, URL-safe (no ":" either, so it can follow a user name in user:password). */
export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');
