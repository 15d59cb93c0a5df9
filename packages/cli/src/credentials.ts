import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Where `switchboard login` keeps the credential: $XDG_CONFIG_HOME/switchboard/credentials.json (default
// ~/.config/switchboard), the directory 0700 and the file 0600, written only after the API accepted it.

export interface StoredCredential {
  url: string;
  /** An account key, or the token of a session from email and password. */
  kind: 'key' | 'session';
  token: string;
  email?: string;
}

const fileOf = (dir: string) => join(dir, 'credentials.json');

/** The credential stored in `dir` (CliEnv.configDir), if any. */
export function readCredential(dir: string): StoredCredential | null {
  try {
    return JSON.parse(readFileSync(fileOf(dir), 'utf8')) as StoredCredential;
  } catch {
    return null;
  }
}

export function storeCredential(credential: StoredCredential, dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = fileOf(dir);
  writeFileSync(file, `${JSON.stringify(credential, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an older file keeps its mode through writeFileSync
  return file;
}

export function forgetCredential(dir: string): boolean {
  const had = readCredential(dir) !== null;
  rmSync(fileOf(dir), { force: true });
  return had;
}
