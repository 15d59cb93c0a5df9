import { homedir } from 'node:os';
import { join } from 'node:path';

// Every environment variable the CLI reads, read here and nowhere else (the service's own are read by
// src/platform/config.ts). docs/cli.md lists them.

export interface CliEnv {
  /** SWITCHBOARD_URL: the API when `--url` is not given (empty counts as unset). */
  url: string | undefined;
  /** SWITCHBOARD_API_KEY: an account key that overrides the stored credential (scripts, CI). */
  apiKey: string | undefined;
  /** SWITCHBOARD_PASSWORD: the password `login --email` uses instead of reading standard input. */
  password: string | undefined;
  /** Where the credential is kept: $XDG_CONFIG_HOME/switchboard, else ~/.config/switchboard. */
  configDir: string;
  /** NO_COLOR: plain output even on a terminal. */
  noColor: boolean;
  /** npm_command (set by npm for what it runs: npx, npm exec, npm run): `listen` also watches npm's processes. */
  launchedByNpm: boolean;
}

function readCliEnv(env: NodeJS.ProcessEnv): CliEnv {
  return {
    url: env.SWITCHBOARD_URL || undefined,
    apiKey: env.SWITCHBOARD_API_KEY || undefined,
    password: env.SWITCHBOARD_PASSWORD,
    configDir: join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'switchboard'),
    noColor: Boolean(env.NO_COLOR),
    launchedByNpm: Boolean(env.npm_command),
  };
}

/** This process's. */
export const cliEnv: CliEnv = readCliEnv(process.env);
