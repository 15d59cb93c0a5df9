import { createClient, SwitchboardError, type SwitchboardClient } from '@switchboard/client';
import { readCredential, type StoredCredential } from './credentials.js';
import { cliEnv } from './env.js';
import { CliError } from './output.js';

// The API as the CLI calls it: @switchboard/client, with the stored credential, or SWITCHBOARD_API_KEY and
// SWITCHBOARD_URL when set (scripts, CI). A call the API refuses throws the client's SwitchboardError, which
// program.ts reports as one line.

export type Api = SwitchboardClient;

export const DEFAULT_URL = 'http://localhost:3000';

export interface Session {
  api: Api;
  credential: StoredCredential;
}

export function apiAt(url: string, token?: string): Api {
  return createClient({ baseUrl: url, token, headers: { 'user-agent': 'switchboard-cli/1' } });
}

export function currentCredential(): StoredCredential {
  if (cliEnv.apiKey) return { url: cliEnv.url ?? DEFAULT_URL, kind: 'key', token: cliEnv.apiKey };
  const stored = readCredential(cliEnv.configDir);
  if (!stored) throw new CliError('not logged in: run `switchboard login` (or set SWITCHBOARD_API_KEY)');
  return stored;
}

export function session(): Session {
  const credential = currentCredential();
  return { api: apiAt(credential.url, credential.token), credential };
}

/** The answer, or null when the API answers 404: for asking whether something is there. */
export async function orAbsent<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof SwitchboardError && err.status === 404) return null;
    throw err;
  }
}

/** The one line a refused or unanswered call is reported as: `<code>: <message>`, or why nothing answered. */
export const describeApiError = (err: SwitchboardError): string =>
  err.status === 0 ? err.message : `${err.code}: ${err.message}`;
