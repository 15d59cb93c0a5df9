import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnChild } from './children.js';
import { waitUntil } from './wait.js';

// The `switchboard` CLI as a person runs it: its own process (node with the tsx loader, the fastest start, and the
// "@switchboard/source" condition, under which the workspace's packages export their TypeScript:
// docs/adr/0085-receiver-library.md), an environment of the test's choosing (XDG_CONFIG_HOME points at a temporary
// directory), stdout and stderr captured.

const ENTRY = fileURLToPath(new URL('../../packages/cli/src/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The stdout lines parsed as JSON (for --json runs). */
  json(): any[];
  /** Waits until a JSON line satisfies `match`, and returns it. */
  waitForJson(match: (line: any) => boolean, timeoutMs?: number): Promise<any>;
  exited: Promise<number | null>;
}

/** The node arguments that run the CLI from this checkout's TypeScript; a test of a build passes its own. */
const FROM_SOURCE = ['--conditions=@switchboard/source', '--import', TSX, ENTRY];

export function startCli(args: string[], env: Record<string, string>, runner = FROM_SOURCE): CliProcess {
  const proc = spawnChild(process.execPath, [...runner, ...args], {
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  // 'close', not 'exit': at 'exit' the child's stdout may still hold output not yet read here (under load, all of a
  // short command's output).
  const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
  const json = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    json,
    exited,
    async waitForJson(match, timeoutMs = 30_000) {
      let found: any;
      await waitUntil(
        () => {
          found = json().find(match);
          return found !== undefined || proc.exitCode !== null;
        },
        timeoutMs,
        'a line from the CLI',
      );
      if (found === undefined) throw new Error(`the CLI exited ${proc.exitCode}: ${err}`);
      return found;
    },
  };
}

/** Runs one command to its end. `stdin` is written and closed. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  runner = FROM_SOURCE,
): Promise<CliResult> {
  const cli = startCli(args, env, runner);
  cli.proc.stdin!.end(stdin);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}
