import createClient from 'openapi-fetch';
import type { paths } from './generated/api-types.js';
import { readCredential, type StoredCredential } from './credentials.js';
import { cliEnv } from './env.js';
import { CliError } from './output.js';

// The API as the CLI calls it: openapi-fetch typed by src/generated/api-types.ts (generated from the OpenAPI document),
// with the stored credential, or SWITCHBOARD_API_KEY and SWITCHBOARD_URL when set (scripts, CI).

export type Api = ReturnType<typeof createClient<paths>>;

export const DEFAULT_URL = 'http://localhost:3000';

export interface Session {
  api: Api;
  credential: StoredCredential;
}

export function apiAt(url: string, token?: string): Api {
  return createClient<paths>({
    baseUrl: url.replace(/\/+$/, ''),
    headers: { 'user-agent': 'switchboard-cli/1', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
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

interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data, or one line naming the API's error code and message. */
export async function must<T>(call: Promise<ApiResult<T>>): Promise<T> {
  const result = await reach(call);
  if (result.response.ok) return result.data as T;
  throw apiError(result.response.status, result.error);
}

/** As `must`, but a 404 answers null: for asking whether something is there. */
export async function mustOrAbsent<T>(call: Promise<ApiResult<T>>): Promise<T | null> {
  const result = await reach(call);
  if (result.response.status === 404) return null;
  if (result.response.ok) return result.data as T;
  throw apiError(result.response.status, result.error);
}

async function reach<T>(call: Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  try {
    return await call;
  } catch (err) {
    throw new CliError(`could not reach the API: ${(err as Error).cause ?? (err as Error).message}`);
  }
}

export function apiError(status: number, body: unknown): CliError {
  const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return new CliError(error?.code ? `${error.code}: ${error.message ?? ''}`.trim() : `the API answered ${status}`);
}
