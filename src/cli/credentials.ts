import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
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

export const configDir = (env: NodeJS.ProcessEnv = process.env): string =>
  join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'switchboard');

const fileOf = (env?: NodeJS.ProcessEnv) => join(configDir(env), 'credentials.json');

export function readCredential(env: NodeJS.ProcessEnv = process.env): StoredCredential | null {
  try {
    return JSON.parse(readFileSync(fileOf(env), 'utf8')) as StoredCredential;
  } catch {
    return null;
  }
}

export function storeCredential(credential: StoredCredential, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = fileOf(env);
  writeFileSync(file, `${JSON.stringify(credential, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an older file keeps its mode through writeFileSync
  return file;
}

export function forgetCredential(env: NodeJS.ProcessEnv = process.env): boolean {
  const had = readCredential(env) !== null;
  rmSync(fileOf(env), { force: true });
  return had;
}
